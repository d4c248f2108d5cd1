import { keptNetwork } from '../../shared/core/identity/network';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitsMessageSchema, type HitsMessage } from '../../shared/core/message';
import { memoryLogger } from '../../shared/core/ports/logger';
import { startTestHost, type TestHost } from '../support/host';
import { cleanTag } from '../../shared/core/identity/campaign';
import {
  ORIGIN,
  PATHS,
  REFERRERS,
  address,
  agent,
  expectNoHeaderValue,
  expectNoQuery,
  expectNothingNaming,
  markersOf,
  queryParameters,
  queryText,
  signalHeaders,
  type QueryParameter,
} from '../support/privacy';

/**
 * The privacy line, as a property: whatever address and agent a request carries, through either endpoint, nothing
 * that reaches the queue or the log holds the address (in any spelling), any dotted four-octet address, or the agent.
 */

describe('privacy: no address, agent or header value reaches the queue or the log', () => {
  let t: TestHost;
  const logger = memoryLogger();
  let queuedHits = 0;

  beforeAll(async () => {
    // No window: each request here is answered before the next is made, so a window would only wait (25 ms a request)
    // and never hold two; what it groups is tested in ingest-hit-sender.
    t = await startTestHost({ queues: false, env: { TRUSTED_PROXY_HOPS: '1', INGEST_WINDOW_MS: '0' }, overrides: { logger } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** Every message on the queue now, base64-decoded, then the queue cleared (one call, not one per message). */
  async function takeAll(): Promise<string[]> {
    const texts: string[] = [];
    for (;;) {
      const received = await t.queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 60 });
      for (const item of received.receivedMessageItems) texts.push(Buffer.from(item.messageText, 'base64').toString('utf8'));
      if (received.receivedMessageItems.length < 32) break;
    }
    if (texts.length > 0) await t.queue.clearMessages();
    return texts;
  }

  /** The messages read with the schema (a leak could hide in a field the schema would refuse, so both are checked). */
  const read = (texts: readonly string[]): HitsMessage[] => texts.map((text) => hitsMessageSchema.parse(JSON.parse(text)));

  const serverHit = fc.record({
    address,
    agent,
    path: fc.constantFrom(...PATHS),
    referrer: fc.constantFrom(...REFERRERS),
    referrerIsAddress: fc.boolean(),
    pageLoad: fc.boolean(),
    headers: fc.option(signalHeaders, { nil: undefined }),
  });

  it('POST /api/hits: addresses and agents in the body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(serverHit, { minLength: 1, maxLength: 25 }), async (hits) => {
        const body = {
          hits: hits.map((hit) => ({
            address: hit.address,
            user_agent: hit.agent,
            path: hit.path,
            // A referrer may itself be the visitor's address (a page served from a bare address).
            referrer: hit.referrerIsAddress ? `http://${hit.address.includes(':') ? `[${hit.address}]` : hit.address}/from` : hit.referrer,
            page_load: hit.pageLoad,
            headers: hit.headers,
          })),
        };
        const response = await fetch(`${t.host.url}/api/hits`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
          body: JSON.stringify(body),
        });
        const answer = await response.text();
        expect(response.status, answer).toBe(202);
        expect(JSON.parse(answer)).toEqual({ accepted: hits.length, ignored: 0 });

        const texts = await takeAll();
        expect(read(texts).reduce((n, message) => n + message.hits.length, 0)).toBe(hits.length);
        queuedHits += hits.length;
        for (const text of texts)
          expectNothingNaming(
            text,
            hits.map((hit) => hit.address),
            hits.map((hit) => hit.agent),
            'a queued message',
          );
        expectNothingNaming(
          logger.lines.join('\n'),
          hits.map((hit) => hit.address),
          hits.map((hit) => hit.agent),
          'the log',
        );
        const markers = hits.flatMap((hit) => (hit.headers ? markersOf(hit.headers) : []));
        for (const text of texts) expectNoHeaderValue(text, markers, 'a queued message');
        expectNoHeaderValue(logger.lines.join('\n'), markers, 'the log');
      }),
      { numRuns: 60 },
    );
    expect(queuedHits).toBeGreaterThan(60);
  });

  it('POST /api/beacon: the address in X-Forwarded-For, the agent in User-Agent', async () => {
    const beacon = fc.record({
      address,
      withPort: fc.boolean(),
      port: fc.integer({ min: 1, max: 65535 }),
      agent,
      path: fc.constantFrom(...PATHS),
      referrer: fc.constantFrom(...REFERRERS),
      textPlain: fc.boolean(),
      headers: signalHeaders,
    });
    let beacons = 0;
    await fc.assert(
      fc.asyncProperty(beacon, async (b) => {
        const entry = !b.withPort ? b.address : b.address.includes(':') ? `[${b.address}]:${b.port}` : `${b.address}:${b.port}`;
        const response = await fetch(`${t.host.url}/api/beacon`, {
          method: 'POST',
          headers: {
            'content-type': b.textPlain ? 'text/plain;charset=UTF-8' : 'application/json',
            origin: ORIGIN,
            ...b.headers,
            'user-agent': b.agent,
            // The local host appends the connection's own address, as Azure's front end does; with one trusted hop
            // this entry is the one read.
            'x-forwarded-for': entry,
          },
          body: JSON.stringify(b.referrer === undefined ? { path: b.path } : { path: b.path, referrer: b.referrer }),
        });
        const answer = await response.text();
        expect(response.status, answer).toBe(202);
        expect(JSON.parse(answer)).toEqual({ accepted: 1, ignored: 0 });

        const texts = await takeAll();
        const [message, ...rest] = read(texts);
        expect(rest).toHaveLength(0);
        expect(message!.hits).toHaveLength(1);
        // The entry given was the one read (so the checks below look at the right thing): the connection's own address,
        // loopback, would have kept its network; any other keeps none.
        expect(message!.hits[0]!.network).toBe(keptNetwork(b.address));
        beacons += 1;
        expectNothingNaming(texts[0]!, [b.address], [b.agent], 'a queued message');
        expectNothingNaming(logger.lines.join('\n'), [b.address], [b.agent], 'the log');
        expectNoHeaderValue(texts[0]!, markersOf(b.headers), 'a queued message');
        expectNoHeaderValue(logger.lines.join('\n'), markersOf(b.headers), 'the log');
      }),
      { numRuns: 100 },
    );
    expect(beacons).toBe(100);
  });

  /** A prop value that would carry a person: an email address, an address, or a long number, each with a marker. */
  const personProp = fc.oneof(
    fc.stringMatching(/^[a-z]{12}$/).map((name) => ({ value: `${name}@mail.example.org`, marker: name })),
    address.map((ip) => ({ value: ip, marker: ip })),
    fc.integer({ min: 100_000_000, max: 999_999_999 }).map((n) => ({ value: `call ${n}`, marker: String(n) })),
  );

  it('props: a value that could carry a person is refused on /api/hits naming the prop, dropped on a beacon, and found nowhere', async () => {
    await fc.assert(
      fc.asyncProperty(personProp, address, agent, async (prop, ip, ua) => {
        const refused = await fetch(`${t.host.url}/api/hits`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
          body: JSON.stringify({ address: ip, user_agent: ua, path: '/', event: 'signup', props: { plan: 'pro', contact: prop.value } }),
        });
        const said = await refused.json();
        expect(refused.status).toBe(400);
        expect(said.error.issues[0].path).toBe('props.contact');
        expect(JSON.stringify(said)).not.toContain(prop.marker);
        const dropped = await fetch(`${t.host.url}/api/beacon`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN, 'user-agent': ua, 'x-forwarded-for': ip },
          body: JSON.stringify({ path: '/', event: 'signup', props: { plan: 'pro', contact: prop.value } }),
        });
        const answer = await dropped.json();
        expect(dropped.status).toBe(202);
        expect(answer).toEqual({ accepted: 1, ignored: 0, refused_props: 1 });
        const texts = await takeAll();
        const [message] = read(texts);
        expect(message!.hits[0]).toMatchObject({ event: 'signup', props: { plan: 'pro' }, page_load: false });
        for (const text of [...texts, logger.lines.join('\n')]) expect(text).not.toContain(prop.marker);
      }),
      { numRuns: 40 },
    );
  });

  it('a full batch of 500 hits, split over several messages, holds none of its addresses or agents', async () => {
    const hits = fc.sample(fc.record({ address, agent }), { numRuns: 500, seed: 42 });
    const response = await fetch(`${t.host.url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
      body: JSON.stringify({
        hits: hits.map((hit, i) => ({
          address: hit.address,
          user_agent: hit.agent,
          path: `/long/${i}/${'p'.repeat(480)}`,
          page_load: true,
          referrer: 'https://github.com/',
        })),
      }),
    });
    expect(response.status, await response.clone().text()).toBe(202);
    expect(await response.json()).toEqual({ accepted: 500, ignored: 0 });
    const texts = await takeAll();
    expect(texts.length).toBeGreaterThan(1);
    expect(read(texts).flatMap((message) => message.hits)).toHaveLength(500);
    const all = texts.join('\n');
    expectNothingNaming(
      all,
      hits.map((hit) => hit.address),
      hits.map((hit) => hit.agent),
      'the queued messages',
    );
    expectNothingNaming(
      logger.lines.join('\n'),
      hits.map((hit) => hit.address),
      hits.map((hit) => hit.agent),
      'the log',
    );
  });

  /** The campaign the four tags make: the first value of each (names read without case), cleaned; null without any. */
  function campaignOfTags(parameters: readonly QueryParameter[]) {
    const first = (name: string) => parameters.find((p) => p.tag && p.name.toLowerCase() === name)?.value;
    const source = cleanTag(first('utm_source')) ?? cleanTag(first('ref'));
    const medium = cleanTag(first('utm_medium'));
    const campaign = cleanTag(first('utm_campaign'));
    return source === null && medium === null && campaign === null ? null : { source, medium, campaign };
  }

  it('random query strings, through either endpoint: only the four tags are read, cleaned; nothing else is queued or logged', async () => {
    const request = fc.record({
      address,
      agent,
      path: fc.constantFrom('/', '/about', '/blog/post-1'),
      query: queryParameters,
      beacon: fc.boolean(),
      pageLoad: fc.boolean(),
      fragment: fc.boolean(),
    });
    let tagged = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const path = `${r.path}?${queryText(r.query)}${r.fragment ? '#section' : ''}`;
        const pageLoad = r.beacon || r.pageLoad;
        const response = r.beacon
          ? await fetch(`${t.host.url}/api/beacon`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', origin: ORIGIN, 'user-agent': r.agent, 'x-forwarded-for': r.address },
              body: JSON.stringify({ path }),
            })
          : await fetch(`${t.host.url}/api/hits`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
              body: JSON.stringify({ address: r.address, user_agent: r.agent, path, page_load: pageLoad }),
            });
        const answer = await response.text();
        expect(response.status, answer).toBe(202);
        const texts = await takeAll();
        const hits = read(texts).flatMap((message) => message.hits);
        expect(hits).toHaveLength(1);
        expect(hits[0]!.path).toBe(r.path);
        const expected = pageLoad ? campaignOfTags(r.query) : null;
        expect(hits[0]!.campaign ?? null).toEqual(expected);
        if (expected) tagged += 1;
        for (const text of texts) expectNoQuery(text, r.query, 'a queued message');
        expectNoQuery(logger.lines.join('\n'), r.query, 'the log');
      }),
      { numRuns: 120 },
    );
    expect(tagged).toBeGreaterThan(10);
  });
});
