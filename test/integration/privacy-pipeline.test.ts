import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { startTestHost, type TestHost } from '../support/host';
import { containerOf, storedDocuments } from '../support/cosmos';
import {
  ORIGIN,
  PATHS,
  REFERRERS,
  address,
  agent,
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
      }),
      { numRuns: 120, seed: 7 },
    )
    .map((s) => ({ ...s, path: `${s.path.split('#')[0]}${s.path.includes('?') ? '&' : '?'}${queryText(s.query)}` }));
  const parameters = sample.flatMap((s) => s.query);
  const markers = sample.flatMap((s) => markersOf(s.headers));
  const addresses = sample.map((s) => s.address);
  const agents = sample.map((s) => s.agent);
  const answers: string[] = [];

  beforeAll(async () => {
    t = await startTestHost({ env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { logger, clock: fixedClock(NOW) } });
    await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('keeps the hits, and nothing kept, queued, answered or logged names anyone', async () => {
    const half = sample.length / 2;
    const server = await fetch(`${t.host.url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
      body: JSON.stringify({
        hits: sample.slice(0, half).map((s) => ({
          address: s.address,
          user_agent: s.agent,
          path: s.path,
          referrer: s.referrer,
          page_load: true,
          subject: s.subject,
          headers: s.headers,
        })),
      }),
    });
    answers.push(await server.text());
    expect(server.status).toBe(202);
    // The beacons all at once, as a busy site sends them: the ingest's window groups them into shared messages.
    const beacons = await Promise.all(
      sample.slice(half).map(async (s) => {
        const beacon = await fetch(`${t.host.url}/api/beacon`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', ...s.headers, origin: ORIGIN, 'user-agent': s.agent, 'x-forwarded-for': s.address },
          body: JSON.stringify({ path: s.path, referrer: s.referrer, ...(s.subject ? { subject: s.subject, status: true } : {}) }),
        });
        return { status: beacon.status, text: await beacon.text() };
      }),
    );
    for (const beacon of beacons) {
      answers.push(beacon.text);
      expect(beacon.status).toBe(202);
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
});
