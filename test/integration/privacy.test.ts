import ipaddr from 'ipaddr.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitsMessageSchema, type HitsMessage } from '../../shared/hits/message';
import { memoryLogger } from '../../shared/ports/logger';
import { startTestHost, type TestHost } from '../support/host';

/**
 * The privacy line, as a property: whatever address and agent a request carries, through either endpoint, nothing
 * that reaches the queue or the log holds the address (in any spelling), any dotted four-octet address, or the agent.
 */

const DOTTED_QUAD = /\b\d{1,3}(\.\d{1,3}){3}\b/;
const ORIGIN = 'https://site.example';
const PATHS = ['/', '/about', '/blog/post-1', '/api/data', '/pricing?plan=pro&ref=newsletter', '/docs/guide#install', '/users/jane'];
const REFERRERS = [undefined, 'https://www.linkedin.com/feed/?trk=x', 'https://github.com/someone/repo', 'https://news.ycombinator.com/item?id=1'];

// ---- addresses ----------------------------------------------------------------------------------------------------

const ipV4Mapped = fc.ipV4().chain((v4) => fc.constantFrom(`::ffff:${v4}`, `::FFFF:${v4}`, `0:0:0:0:0:ffff:${v4}`));
const address = fc.oneof(fc.ipV4(), fc.ipV6(), ipV4Mapped);

/** Every spelling of an address a leak could take: as given, canonical, compressed, expanded, the IPv4 it carries. */
function spellings(given: string): string[] {
  const out = new Set<string>([given]);
  const dotted = given.match(/\d{1,3}(\.\d{1,3}){3}/);
  if (dotted) out.add(dotted[0]);
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(given);
  } catch {
    return [...out];
  }
  const add = (value: ipaddr.IPv4 | ipaddr.IPv6) => {
    out.add(value.toString());
    out.add(value.toNormalizedString());
    if (value.kind() === 'ipv6') {
      const v6 = value as ipaddr.IPv6;
      const expanded = v6.parts.map((part) => part.toString(16).padStart(4, '0')).join(':');
      out.add(expanded);
      out.add(v6.toRFC5952String());
      out.add(expanded.replace(/:/g, ''));
    } else {
      const v4 = value as ipaddr.IPv4;
      out.add(String(v4.octets.reduce((n, octet) => n * 256 + octet, 0)));
      out.add(v4.toIPv4MappedAddress().toString());
      out.add(v4.toIPv4MappedAddress().toNormalizedString());
    }
  };
  add(parsed);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) add((parsed as ipaddr.IPv6).toIPv4Address());
  return [...out].filter((spelling) => spelling.length >= 3);
}

// ---- agents -------------------------------------------------------------------------------------------------------

const version = fc.record({ major: fc.integer({ min: 1, max: 199 }), minor: fc.integer({ min: 0, max: 99 }), build: fc.integer({ min: 0, max: 9999 }), patch: fc.integer({ min: 0, max: 399 }) });
type Version = { major: number; minor: number; build: number; patch: number };

/** Real agent strings with their version numbers left open. */
const TEMPLATES: ((v: Version) => string)[] = [
  (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v.major}.0.${v.build}.${v.patch} Safari/537.36`,
  (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v.major}.0.0.0 Safari/537.36 Edg/${v.major}.0.${v.build}.${v.patch}`,
  (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${v.major}.0) Gecko/20100101 Firefox/${v.major}.${v.minor}`,
  (v) => `Mozilla/5.0 (X11; Linux x86_64; rv:${v.major}.0) Gecko/20100101 Firefox/${v.major}.0`,
  (v) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_${v.minor}) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v.major}.${v.minor} Safari/605.1.15`,
  (v) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v.major}_${v.minor} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v.major}.${v.minor} Mobile/15E148 Safari/604.1`,
  (v) => `Mozilla/5.0 (Linux; Android ${v.major % 16}; Pixel ${v.minor % 10}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v.major}.0.${v.build}.${v.patch} Mobile Safari/537.36`,
  (v) => `Mozilla/5.0 (Linux; Android ${v.major % 16}; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/${v.major}.${v.minor} Chrome/${v.major}.0.0.0 Mobile Safari/537.36`,
  (v) => `Mozilla/5.0 (compatible; Googlebot/${v.major}.${v.minor}; +http://www.google.com/bot.html)`,
  (v) => `Mozilla/5.0 (compatible; bingbot/${v.major}.${v.minor}; +http://www.bing.com/bingbot.htm)`,
  (v) => `facebookexternalhit/${v.major}.${v.minor} (+http://www.facebook.com/externalhit_uatext.php)`,
  (v) => `curl/${v.major}.${v.minor}.${v.patch}`,
  (v) => `python-requests/${v.major}.${v.minor}.${v.patch}`,
  (v) => `Go-http-client/${v.major}.${v.minor}`,
];

const realAgent = fc.tuple(fc.integer({ min: 0, max: TEMPLATES.length - 1 }), version).map(([which, v]) => TEMPLATES[which]!(v));
/** Printable ASCII only, as a header carries it; long enough that finding it in a message could not be chance. */
const randomAgent = fc.string({ minLength: 12, maxLength: 120 }).filter((agent) => agent.trim().length >= 12);
const agent = fc.oneof({ weight: 3, arbitrary: realAgent }, { weight: 1, arbitrary: randomAgent });

/** The agent whole, and the parts of it that would name it: product tokens with their versions, the comments. */
function agentPieces(given: string): string[] {
  const agentText = given.trim();
  const pieces = new Set<string>([agentText]);
  for (const token of agentText.match(/[A-Za-z][A-Za-z0-9_-]*\/\d[0-9A-Za-z._]*/g) ?? []) pieces.add(token);
  for (const comment of agentText.match(/\([^()]{6,}\)/g) ?? []) pieces.add(comment);
  return [...pieces].filter((piece) => piece.length >= 6);
}

// ---- checking -----------------------------------------------------------------------------------------------------

/** What a text must not hold: each spelling of each address, each piece of each agent, any dotted four-octet address. */
function expectNothingNaming(text: string, addresses: readonly string[], agents: readonly string[], where: string) {
  const lower = text.toLowerCase();
  for (const given of addresses) {
    for (const spelling of spellings(given)) expect(lower, `${where} holds the address ${given} as ${spelling}`).not.toContain(spelling.toLowerCase());
  }
  for (const given of agents) {
    for (const piece of agentPieces(given)) expect(lower, `${where} holds the agent ${given} as ${piece}`).not.toContain(piece.toLowerCase());
  }
  expect(text, `${where} holds a dotted four-octet address`).not.toMatch(DOTTED_QUAD);
}

describe('privacy: no address or agent reaches the queue or the log', () => {
  let t: TestHost;
  const logger = memoryLogger();
  let queuedHits = 0;

  beforeAll(async () => {
    t = await startTestHost({ queues: false, env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { logger } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** Every message on the queue now, base64-decoded, taken off the queue. */
  async function takeAll(): Promise<string[]> {
    const texts: string[] = [];
    for (;;) {
      const received = await t.queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 60 });
      if (received.receivedMessageItems.length === 0) return texts;
      for (const item of received.receivedMessageItems) {
        texts.push(Buffer.from(item.messageText, 'base64').toString('utf8'));
        await t.queue.deleteMessage(item.messageId, item.popReceipt);
      }
    }
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
        for (const text of texts) expectNothingNaming(text, hits.map((hit) => hit.address), hits.map((hit) => hit.agent), 'a queued message');
        expectNothingNaming(logger.lines.join('\n'), hits.map((hit) => hit.address), hits.map((hit) => hit.agent), 'the log');
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
        // The entry given was the one read: its network is on the hit (so the checks below look at the right thing).
        const network = message!.hits[0]!.network;
        expect(network).not.toBe('x');
        beacons += 1;
        expectNothingNaming(texts[0]!, [b.address], [b.agent], 'a queued message');
        expectNothingNaming(logger.lines.join('\n'), [b.address], [b.agent], 'the log');
      }),
      { numRuns: 100 },
    );
    expect(beacons).toBe(100);
  });

  it('a full batch of 500 hits, split over several messages, holds none of its addresses or agents', async () => {
    const hits = fc.sample(fc.record({ address, agent }), { numRuns: 500, seed: 42 });
    const response = await fetch(`${t.host.url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
      body: JSON.stringify({
        hits: hits.map((hit, i) => ({ address: hit.address, user_agent: hit.agent, path: `/long/${i}/${'p'.repeat(480)}`, page_load: true, referrer: 'https://github.com/' })),
      }),
    });
    expect(response.status, await response.clone().text()).toBe(202);
    expect(await response.json()).toEqual({ accepted: 500, ignored: 0 });
    const texts = await takeAll();
    expect(texts.length).toBeGreaterThan(1);
    expect(read(texts).flatMap((message) => message.hits)).toHaveLength(500);
    const all = texts.join('\n');
    expectNothingNaming(all, hits.map((hit) => hit.address), hits.map((hit) => hit.agent), 'the queued messages');
    expectNothingNaming(logger.lines.join('\n'), hits.map((hit) => hit.address), hits.map((hit) => hit.agent), 'the log');
  });
});
