import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outboxMails } from '../../adapters/files/outbox';
import { startTestHost, type TestHost } from '../support/host';
import { containerOf, storedDocuments } from '../support/cosmos';
import {
  ORIGIN,
  PATHS,
  REFERRERS,
  address,
  agent,
  engagement,
  width,
  expectNoHeaderValue,
  expectNoQuery,
  expectNoSecret,
  expectNothingNaming,
  markersOf,
  queryParameters,
  queryText,
  signalHeaders,
} from '../support/privacy';

const NOW = new Date('2026-10-23T12:00:00Z');

/**
 * The privacy line through the whole pipeline: addresses and agents go in through both endpoints, keep-hits keeps them,
 * the recount and every read run; then every stored document, every message left on either queue, every answer and
 * every log line is searched, and none holds an address in any spelling, a dotted four-octet address, or an agent.
 */
describe('privacy through the whole pipeline: ingest, queue, keeping, recount and reads', () => {
  let t: TestHost;
  const logger = memoryLogger();
  // Each path also carries a random query string: the four campaign tags among other parameters, none of which may be
  // kept; each request carries header values of its own, none of which may be kept either.
  const sample = fc
    .sample(
      fc.record({
        address,
        agent,
        path: fc.constantFrom(...PATHS),
        query: queryParameters,
        referrer: fc.constantFrom(...REFERRERS),
        subject: fc.constantFrom(undefined, 'tree-1', 'tree-2'),
        headers: signalHeaders,
        engagement,
        width,
      }),
      { numRuns: 120, seed: 7 },
    )
    .map((s) => ({ ...s, path: `${s.path.split('#')[0]}${s.path.includes('?') ? '&' : '?'}${queryText(s.query)}` }));
  const parameters = sample.flatMap((s) => s.query);
  const markers = sample.flatMap((s) => markersOf(s.headers));
  const addresses = sample.map((s) => s.address);
  const agents = sample.map((s) => s.agent);
  const answers: string[] = [];
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    t = await startTestHost({ env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { logger, clock } });
    await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('keeps the hits, and nothing kept, queued, answered or logged names anyone', async () => {
    const half = sample.length / 2;
    const server = await fetch(`${t.host.url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
      body: JSON.stringify({
        hits: [
          ...sample.slice(0, half).map((s) => ({
            address: s.address,
            user_agent: s.agent,
            path: s.path,
            referrer: s.referrer,
            page_load: true,
            subject: s.subject,
            headers: s.headers,
          })),
          // Each page view's engagement after it, as a site's server forwards them.
          ...sample
            .slice(0, half)
            .map((s) => ({ address: s.address, user_agent: s.agent, path: s.path, engagement: s.engagement, headers: s.headers })),
        ],
      }),
    });
    answers.push(await server.text());
    expect(server.status).toBe(202);
    // The beacons all at once, as a busy site sends them: the ingest's window groups them into shared messages. Each page
    // load carries the viewport's width, and is followed by its page view's engagement.
    const send = (s: (typeof sample)[number], body: object) =>
      fetch(`${t.host.url}/api/beacon`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...s.headers, origin: ORIGIN, 'user-agent': s.agent, 'x-forwarded-for': s.address },
        body: JSON.stringify(body),
      });
    const beacons = await Promise.all(
      sample.slice(half).map(async (s) => {
        const load = { path: s.path, referrer: s.referrer, width: s.width, ...(s.subject ? { subject: s.subject, status: true } : {}) };
        const beacon = await send(s, load);
        const engaged = await send(s, { path: s.path, engagement: s.engagement });
        return { status: beacon.status, text: await beacon.text(), engaged: engaged.status };
      }),
    );
    for (const beacon of beacons) {
      answers.push(beacon.text);
      expect(beacon.status).toBe(202);
      expect(beacon.engaged).toBe(202);
    }
    await t.host.drain();
    await t.fold();

    const admin = { authorization: `Bearer ${t.env.OPERATOR_KEY!}` };
    for (const path of [
      '/api/pulse',
      '/api/admin/visitors/people',
      '/api/admin/activity?days=30',
      `/api/admin/activity/visitors?day=2026-10-23`,
      '/api/admin/subjects',
      '/api/admin/subjects/tree-1',
      '/api/admin/now',
      '/api/admin/retention?months=3',
      '/api/admin/retention?months=3&filter=source:typed',
      '/api/admin/export?from=2026-10-17&to=2026-10-23&format=csv',
      '/api/admin/export?from=2026-10-17&to=2026-10-23',
    ]) {
      const response = await fetch(`${t.host.url}${path}`, { headers: admin });
      expect(response.status, path).toBe(200);
      answers.push(await response.text());
    }

    // A read-only key's reads: the Stats API and MCP answer from the same figures, and the key is kept nowhere.
    const made = await fetch(`${t.host.url}/api/admin/keys`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'privacy' }),
    });
    const { key } = (await made.json()) as { key: string };
    const keyed = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const dimension of ['event:page', 'visit:referrer', 'visit:country', 'visit:browser', 'visit:utm_source', 'time:day']) {
      const metrics = dimension.startsWith('visit:utm') ? ['pageviews'] : ['visitors'];
      const body = JSON.stringify({ metrics, date_range: '30d', dimensions: [dimension] });
      const response = await fetch(`${t.host.url}/api/v2/query`, { method: 'POST', headers: keyed, body });
      expect(response.status, dimension).toBe(200);
      answers.push(await response.text());
    }
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'breakdown', arguments: { dimension: 'event:page', limit: 50 } },
    };
    const mcp = await fetch(`${t.host.url}/api/mcp`, { method: 'POST', headers: keyed, body: JSON.stringify(call) });
    expect(mcp.status).toBe(200);
    answers.push(await mcp.text());

    // Every fact's parts are kept packed, and searched unpacked.
    const { documents, facts, packed } = await storedDocuments(await containerOf(t.env));
    expect(facts).toBeGreaterThan(0);
    expect(packed).toBe(facts);
    const people = documents.filter((doc: { kind?: string; who?: string }) => doc.kind === 'visitor-record');
    // The pipeline really kept what it was fed: visitor records, the day's activity, subjects.
    expect(people.length).toBeGreaterThan(10);
    expect(documents.some((doc: { kind?: string }) => doc.kind === 'visitor-day')).toBe(true);
    expect(documents.some((doc: { id: string }) => doc.id === 'visitors-summary')).toBe(true);

    const left = [
      ...(await t.queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems,
      ...(await t.poison.peekMessages({ numberOfMessages: 32 })).peekedMessageItems,
    ].map((m) => Buffer.from(m.messageText, 'base64').toString('utf8'));
    expect(left).toEqual([]);

    expect([...documents.map((doc) => JSON.stringify(doc)), ...logger.lines].join('\n')).not.toContain(key.slice(4));

    // Each day's secret is kept in the store alone: never in an answer, a log line or a message.
    const secrets = documents.filter((doc: { kind?: string }) => doc.kind === 'day-secret').map((doc: { secret: string }) => doc.secret);
    expectNoSecret(answers.join('\n'), secrets, 'an answer');
    expectNoSecret(logger.lines.join('\n'), secrets, 'the log');
    expectNoSecret(
      documents
        .filter((doc: { kind?: string }) => doc.kind !== 'day-secret')
        .map((doc) => JSON.stringify(doc))
        .join('\n'),
      secrets,
      'another document',
    );
    expectNothingNaming(documents.map((doc) => JSON.stringify(doc)).join('\n'), addresses, agents, 'a stored document');
    expectNothingNaming(answers.join('\n'), addresses, agents, 'an answer');
    expectNothingNaming(logger.lines.join('\n'), addresses, agents, 'the log');
    expectNoQuery(documents.map((doc) => JSON.stringify(doc)).join('\n'), parameters, 'a stored document');
    expectNoQuery(answers.join('\n'), parameters, 'an answer');
    expectNoQuery(logger.lines.join('\n'), parameters, 'the log');
    // The tags were read: some page loads carried a campaign, and it is on the period report.
    expect(
      documents.some(
        (doc: { kind?: string; campaigns?: object }) =>
          doc.kind === 'visitor-day' && doc.campaigns && Object.keys(doc.campaigns).length > 0,
      ),
    ).toBe(true);
    expectNoHeaderValue(documents.map((doc) => JSON.stringify(doc)).join('\n'), markers, 'a stored document');
    // The width is kept only as its screen size, an engagement without when it was sent, and the site's own page that
    // linked another neither as a host nor a path of its query.
    for (const text of [documents.map((doc) => JSON.stringify(doc)).join('\n'), answers.join('\n'), logger.lines.join('\n')])
      expect(text).not.toMatch(/"width"|since_ms|session|abc123/);
    const sources = documents.flatMap((doc: { kind?: string; sources?: object }) =>
      doc.kind === 'visitor-day' ? Object.keys(doc.sources ?? {}) : [],
    );
    expect(sources).toContain('(site)');
    expect(sources).not.toContain('site.example');
    expect(
      documents.some((doc: { kind?: string; screens?: object }) => doc.kind === 'visitor-day' && Object.keys(doc.screens ?? {}).length > 0),
    ).toBe(true);
    expectNoHeaderValue(answers.join('\n'), markers, 'an answer');
    expectNoHeaderValue(logger.lines.join('\n'), markers, 'the log');
    // First touches: on every person's record and every action of a fact, only a source group, a bare referrer host and
    // a campaign key; a retention cell holds a sketch, never a hash.
    const touches = documents.flatMap((doc: { first_touch?: object; actions?: Array<{ touch?: object }> }) => [
      ...(doc.first_touch === undefined ? [] : [doc.first_touch]),
      ...(doc.actions ?? []).flatMap((action) => (action.touch === undefined ? [] : [action.touch])),
    ]);
    expect(
      people.every((record: { first_touch?: object; who: string }) => record.who !== 'people' || record.first_touch !== undefined),
    ).toBe(true);
    expect(touches.length).toBeGreaterThan(10);
    for (const touch of touches as Array<Record<string, string | null>>) {
      expect(Object.keys(touch).sort()).toEqual(['campaign', 'referrer', 'source']);
      expect(['linkedin', 'github', 'search', 'other', 'typed']).toContain(touch.source);
      if (touch.referrer !== null) expect(touch.referrer).toMatch(/^[a-z0-9.-]+$/);
      if (touch.campaign !== null) expect(touch.campaign).toMatch(/^[^?&=/]*\|[^?&=/]*\|[^?&=/]*$/);
    }
    const cells = documents.filter((doc: { kind?: string }) => doc.kind === 'cohort-cell');
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells)
      expect(
        Object.keys(cell)
          .filter((key) => !key.startsWith('_'))
          .sort(),
      ).toEqual(
        ['at', 'cohort', 'id', 'kind', 'people_sketch', 'pk', 'span', 'ttl'].filter((key) => key !== 'ttl' || cell.span === 'week'),
      );
    // A filter value's retention cells too; and a visitor-day (and a fact's part of one) keeps its people by first day
    // only as a UTC day and a sketch's registers (numbers), never a hash.
    expect(cells.some((cell: { pk: string }) => cell.pk.startsWith('cells:'))).toBe(true);
    const byFirstDay = documents.flatMap((doc: { kind?: string; first_days?: object; visitor_days?: Array<{ first_days?: object }> }) => [
      ...(doc.first_days === undefined ? [] : [doc.first_days]),
      ...(doc.kind === 'fact' ? doc.visitor_days! : []).flatMap((part) => (part.first_days === undefined ? [] : [part.first_days])),
    ]);
    expect(byFirstDay.length).toBeGreaterThan(10);
    for (const days of byFirstDay as Array<Record<string, Record<string, unknown>>>)
      for (const [day, registers] of Object.entries(days)) {
        expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        for (const [register, rank] of Object.entries(registers)) {
          expect(register).toMatch(/^\d{1,5}$/);
          expect(typeof rank).toBe('number');
        }
      }
    // And no query string: every path kept is the path alone.
    expect(documents.map((doc) => JSON.stringify(doc)).join('\n')).not.toMatch(/plan=pro|ref=newsletter|trk=x|\?id=1/);
  });
  it("mails reports and alerts of those hits, and no mail names anyone, carries a query string or a header's value", async () => {
    const admin = { authorization: `Bearer ${t.env.OPERATOR_KEY!}`, 'content-type': 'application/json' };
    const read = await fetch(`${t.host.url}/api/admin/config`, { headers: admin });
    const config = await read.json();
    const site = config.sites[0].name as string;
    const email = [{ site, recipients: ['owner@example.com'], reports: ['weekly', 'monthly'], spike_people: 1, drop_percent: 99 }];
    const put = await fetch(`${t.host.url}/api/admin/config`, {
      method: 'PUT',
      headers: { ...admin, 'if-match': read.headers.get('etag')! },
      body: JSON.stringify({ ...config, email }),
    });
    expect(put.status).toBe(200);
    const outbox = t.env.EMAIL_OUTBOX!;
    await t.host.run('email');
    const confirm = /\/api\/email\/confirm\?token=[\w-]{32}/.exec((await outboxMails(outbox))[0]!.text)![0];
    expect((await fetch(`${t.host.url}${confirm}`)).status).toBe(200);
    // The spike now; on Saturday the week's report and Friday's drop; in November October's report.
    for (const at of [NOW.toISOString(), '2026-10-31T08:00:00Z', '2026-11-02T08:00:00Z']) {
      clock.set(at);
      await t.host.run('email');
    }
    const subjects = (await outboxMails(outbox)).map((mail) => mail.subject);
    for (const kind of [
      /^Traffic spike/,
      /weekly report, 2026-10-19 to 2026-10-25$/,
      /^Traffic drop/,
      /monthly report, 2026-10-01 to 2026-10-31$/,
    ])
      expect(
        subjects.filter((subject) => kind.test(subject)),
        String(kind),
      ).toHaveLength(1);
    const files = readdirSync(outbox)
      .map((file) => readFileSync(join(outbox, file), 'utf8'))
      .join('\n');
    // The reports hold the pages the hits asked for, each as its path alone.
    expect(files).toContain('/blog/post-1');
    expectNothingNaming(files, addresses, agents, 'a mail');
    expectNoQuery(files, parameters, 'a mail');
    expectNoHeaderValue(files, markers, 'a mail');
    expect(files).not.toMatch(/plan=pro|ref=newsletter/);
  });
});
