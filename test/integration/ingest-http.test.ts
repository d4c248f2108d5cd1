import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hitsMessageSchema } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post, browserHeaders } from '../support/http';

const now = new Date('2026-10-23T10:00:00Z');

describe('the ingest endpoints through the local host into Azurite', () => {
  let t: TestHost;
  const hits = (body: unknown, headers: Record<string, string> = {}) =>
    post(`${t.host.url}/api/hits`, body, { 'x-ingest-key': t.env.INGEST_KEY!, ...headers });
  const beacon = (body: unknown, headers: Record<string, string> = {}) =>
    post(`${t.host.url}/api/beacon`, body, {
      ...browserHeaders(AGENTS.firefoxLinux),
      origin: 'https://site.example',
      'user-agent': AGENTS.firefoxLinux,
      ...headers,
    });
  const queued = async () => (await t.peek()).map((text) => hitsMessageSchema.parse(JSON.parse(text)));

  beforeAll(async () => {
    t = await startTestHost({ queues: false, env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { clock: fixedClock(now) } });
  });
  beforeEach(() => t.queue.clearMessages());
  afterAll(() => t.stop());

  it('puts a posted hit on the queue, base64 JSON that the message schema accepts, with nothing that names the visitor', async () => {
    const answer = await hits({
      at: '2026-10-23T09:59:00Z',
      address: '203.0.113.7',
      user_agent: AGENTS.chromeWindows,
      path: '/about?utm=1#top',
      referrer: 'https://www.LinkedIn.com/feed/?trk=x',
      page_load: true,
      store: 'cosmos',
      subject: 'tree-42',
    });
    expect(answer).toMatchObject({ status: 202, json: { accepted: 1, ignored: 0 } });
    const [message, ...rest] = await queued();
    expect(rest).toHaveLength(0);
    expect(message!.hits).toHaveLength(1);
    const hit = message!.hits[0]!;
    expect(hit).toMatchObject({
      at: '2026-10-23T09:59:00.000Z',
      network: 'x',
      path: '/about',
      served_by: 'cosmos',
      bot: false,
      self: false,
      source: 'www.linkedin.com',
      subject: 'tree-42',
    });
    expect(hit.token).toMatch(/^[0-9a-f]{32}$/);
    expect(hit.person).toMatch(/^[0-9a-f]{32}$/);
    const raw = (await t.peek())[0]!;
    expect(raw).not.toContain('203.0.113.7');
    expect(raw).not.toContain('Chrome');
  });

  it('keeps the referrer only on a page load', async () => {
    await hits({
      address: '203.0.113.7',
      user_agent: AGENTS.chromeWindows,
      path: '/api/data',
      referrer: 'https://github.com/x',
      page_load: false,
    });
    const [message] = await queued();
    expect(message!.hits[0]!.source).toBeNull();
  });

  it('answers an asset and an ignored path as ignored and enqueues nothing for them', async () => {
    const answer = await hits({
      hits: [
        { address: '203.0.113.7', user_agent: AGENTS.chromeWindows, path: '/app.js' },
        { address: '203.0.113.7', user_agent: AGENTS.chromeWindows, path: '/robots.txt' },
        { address: '203.0.113.7', user_agent: AGENTS.chromeWindows, path: '/api/admin/visitors/people' },
      ],
    });
    expect(answer).toMatchObject({ status: 202, json: { accepted: 0, ignored: 3 } });
    expect(await t.peek()).toEqual([]);
  });

  it('queues the site reading itself as self with no person hash, never as a person', async () => {
    const answer = await hits({
      hits: [
        { address: '127.0.0.1', user_agent: AGENTS.curl, path: '/health' },
        { address: '10.20.3.4', user_agent: AGENTS.chromeWindows, path: '/' },
        { address: '198.51.100.9', user_agent: `${AGENTS.chromeWindows} headcount-self`, path: '/' },
        { address: '198.51.100.9', user_agent: AGENTS.chromeWindows, path: '/', operator: t.env.OPERATOR_KEY },
        { address: '198.51.100.9', user_agent: AGENTS.chromeWindows, path: '/' },
      ],
    });
    expect(answer).toMatchObject({ status: 202, json: { accepted: 5, ignored: 0 } });
    const hitsQueued = (await queued()).flatMap((message) => message.hits);
    expect(hitsQueued.map((hit) => [hit.self, hit.person === null])).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [true, true],
      [false, false],
    ]);
  });

  it('reads a beacon: the address from the connection side of X-Forwarded-For, the agent from User-Agent, text/plain as sendBeacon sends', async () => {
    const answer = await beacon('{"path":"/blog/post?x=1","referrer":"https://www.google.co.uk/search?q=me"}', {
      'content-type': 'text/plain;charset=UTF-8',
      'x-forwarded-for': '6.6.6.6, 198.51.100.23:51234',
    });
    expect(answer.status).toBe(202);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://site.example');
    const [message] = await queued();
    expect(message!.hits[0]).toMatchObject({
      network: 'x',
      path: '/blog/post',
      source: 'www.google.co.uk',
      bot: false,
      self: false,
    });
  });

  it('answers a preflight from an allowed origin and refuses one from another', async () => {
    const allowed = await fetch(`${t.host.url}/api/beacon`, {
      method: 'OPTIONS',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    const refused = await fetch(`${t.host.url}/api/beacon`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
  });

  it('splits a large request into several messages under 64 KB, all on the queue', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      address: `203.0.${i % 250}.${i % 200}`,
      user_agent: AGENTS.chromeWindows,
      path: `/articles/${'a'.repeat(300)}/${i}`,
    }));
    const answer = await hits({ hits: many });
    expect(answer).toMatchObject({ status: 202, json: { accepted: 500, ignored: 0 } });
    const texts = await t.peek();
    expect(texts.length).toBeGreaterThan(1);
    for (const text of texts) expect(Buffer.from(text).toString('base64').length).toBeLessThanOrEqual(64 * 1024);
    const all = texts.map((text) => hitsMessageSchema.parse(JSON.parse(text)));
    expect(all.flatMap((m) => m.hits.map((h) => h.path))).toEqual(many.map((h) => h.path));
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
  });
});
