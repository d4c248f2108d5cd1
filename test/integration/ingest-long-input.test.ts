import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hitsMessageSchema } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, browserHeaders, post } from '../support/http';

// Long input is taken as the rest of a hit is: a path judged as it is kept (its query dropped but for the four
// campaign tags, cut to 512), so no path, query, agent, referrer or forwarded header refuses a hit or its batch. The
// limits that stay (the body, the count of hits) are refused with the field named. A beacon with no Origin is refused.

const now = new Date('2026-10-23T10:00:00Z');
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';

describe('long input through POST /api/hits and POST /api/beacon', () => {
  let t: TestHost;
  const hits = (body: unknown) => post(`${t.host.url}/api/hits`, body, { 'x-ingest-key': t.env.INGEST_KEY! });
  const queued = async () => (await t.peek()).flatMap((text) => hitsMessageSchema.parse(JSON.parse(text)).hits);
  const hit = (i: number, fields: Record<string, unknown> = {}) => ({
    address: `203.0.113.${i + 1}`,
    user_agent: AGENTS.firefoxLinux,
    path: `/p/${i}`,
    page_load: true,
    ...fields,
  });

  beforeAll(async () => {
    t = await startTestHost({ queues: false, overrides: { clock: fixedClock(now) } });
  });
  beforeEach(() => t.queue.clearMessages());
  afterAll(() => t.stop());

  it('takes a batch of 100 whose one path is 2,049 characters, cut to the 512 kept', async () => {
    const long = `/${'a'.repeat(2048)}`;
    const batch = Array.from({ length: 100 }, (_, i) => hit(i, i === 37 ? { path: long } : {}));
    expect(await hits({ hits: batch })).toMatchObject({ status: 202, json: { accepted: 100, ignored: 0 } });
    const kept = await queued();
    expect(kept).toHaveLength(100);
    expect(kept.map((one) => one.path)).toContain(long.slice(0, 512));
  });

  it('takes a 1,000-character path with a 1,100-character query, keeping only its campaign tags', async () => {
    const path = `/${'b'.repeat(999)}?${'q=x&'.repeat(270)}utm_source=LinkedIn&utm_campaign=launch&${'z'.repeat(20)}`;
    expect(path.length).toBeGreaterThan(2_100);
    expect(await hits(hit(1, { path }))).toMatchObject({ status: 202, json: { accepted: 1 } });
    const [one] = await queued();
    expect(one!.path).toBe(`/${'b'.repeat(511)}`);
    expect(one!.campaign).toEqual({ source: 'linkedin', medium: null, campaign: 'launch' });
  });

  it('takes paths of any length up to the body, a long agent and referrer, and any forwarded header', async () => {
    const batch = [
      hit(1, { path: `/${'c'.repeat(200_000)}` }),
      hit(2, { user_agent: `${CHROME} ${'x'.repeat(5_000)}`, referrer: `https://github.com/${'r'.repeat(5_000)}` }),
      hit(3, {
        user_agent: CHROME,
        headers: {
          'user-agent': CHROME,
          accept: 'text/html',
          'accept-language': 'en',
          cookie: 'c'.repeat(10_000),
          'x-list': ['a', 'b'],
          ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-header-${i}`, String(i)])),
        },
      }),
    ];
    expect(await hits({ hits: batch })).toMatchObject({ status: 202, json: { accepted: 3 } });
    const kept = await queued();
    expect(kept.map((one) => one.path.length)).toEqual([512, 4, 4]);
    expect(kept[1]!.source).toBe('github.com');
    expect(kept.every((one) => !one.bot)).toBe(true);
  });

  it('counts a Chrome visitor whose server forwarded no client hints (a proxy dropped them, or the page was HTTP) as a person', async () => {
    const headers = {
      host: 'www.example.com',
      'user-agent': CHROME,
      accept: 'text/html',
      'accept-language': 'en-GB',
      'sec-fetch-site': 'none',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    expect(await hits(hit(1, { user_agent: CHROME, headers }))).toMatchObject({ status: 202 });
    const [one] = await queued();
    expect([one!.bot, one!.reason]).toEqual([false, null]);
  });

  it('refuses only past the limits that stay, naming them: the body and the count of hits', async () => {
    const large = await hits({ hits: [hit(1, { path: `/${'d'.repeat(600 * 1024)}` })] });
    expect(large.status).toBe(413);
    expect(large.json.error).toMatchObject({ code: 'payload_too_large', message: '(body): must be at most 524288 bytes (512 KB)' });
    expect(large.json.error.issues).toEqual([{ path: '(body)', message: 'must be at most 524288 bytes (512 KB)' }]);
    const many = await hits({ hits: Array.from({ length: 501 }, (_, i) => hit(i % 200)) });
    expect(many.status).toBe(400);
    expect(many.json.error.message).toBe('hits: must hold at most 500 hits');
    expect(await t.peek()).toEqual([]);
  });

  it('refuses a beacon that names no Origin, as the docs say, and takes a long path from an allowed one', async () => {
    const headers = { ...browserHeaders(AGENTS.firefoxLinux), 'user-agent': AGENTS.firefoxLinux };
    const none = await post(`${t.host.url}/api/beacon`, { path: '/' }, headers);
    expect(none.status).toBe(403);
    expect(none.json.error).toMatchObject({ code: 'origin_required' });
    expect(none.json.error.message).toMatch(/^origin: /);
    const long = await post(
      `${t.host.url}/api/beacon`,
      { path: `/${'e'.repeat(3_000)}?utm_medium=email` },
      { ...headers, origin: 'https://site.example' },
    );
    expect(long.status).toBe(202);
    const [one] = await queued();
    expect(one!.path).toHaveLength(512);
    expect(one!.campaign).toMatchObject({ medium: 'email' });
  });
});
