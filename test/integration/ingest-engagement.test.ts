import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hitsMessageSchema, type QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post, browserHeaders } from '../support/http';

// A page view's engagement through the ingest endpoints into Azurite: neither a page load nor an event, queued at its
// page load's instant, a bot's left out, and anything else a 400 naming `engagement`.
const NOW = '2026-10-23T00:10:00.000Z';
const ORIGIN = 'https://site.example';

describe('engagement on the beacon and on /api/hits', () => {
  let t: TestHost;
  const clock = fixedClock(NOW);
  const hits = (body: unknown) => post(`${t.host.url}/api/hits`, body, { 'x-ingest-key': t.env.INGEST_KEY! });
  const beacon = (body: unknown, agent: string = AGENTS.firefoxLinux) =>
    post(`${t.host.url}/api/beacon`, body, {
      ...browserHeaders(agent),
      origin: ORIGIN,
      'user-agent': agent,
      'x-forwarded-for': '198.51.100.23',
    });
  const queued = async (): Promise<QueuedHit[]> => (await t.peek()).flatMap((text) => hitsMessageSchema.parse(JSON.parse(text)).hits);
  const server = (more: Record<string, unknown>) => ({
    at: '2026-10-23T00:09:00Z',
    address: '203.0.113.7',
    user_agent: AGENTS.chromeWindows,
    path: '/guide',
    ...more,
  });

  beforeAll(async () => {
    t = await startTestHost({ queues: false, env: { TRUSTED_PROXY_HOPS: '1', ALLOWED_ORIGINS: ORIGIN }, overrides: { clock } });
  });
  beforeEach(() => t.queue.clearMessages());
  afterAll(() => t.stop());

  it("queues a beacon's engagement on its path, not a page load, at its page load's instant: after midnight, the day before's token", async () => {
    expect((await beacon({ path: '/guide', width: 1300 })).status).toBe(202);
    clock.set('2026-10-22T23:30:00.000Z');
    expect((await beacon({ path: '/guide', width: 1300 })).status).toBe(202);
    clock.set(NOW);
    const answer = await beacon({ path: '/guide?utm_source=x', width: 500, engagement: { ms: 45_000, scroll: 80, since_ms: 3_600_000 } });
    expect(answer).toMatchObject({ status: 202, json: { accepted: 1, ignored: 0 } });
    const [today, yesterday, engaged] = await queued();
    expect(engaged).toMatchObject({
      at: '2026-10-22T23:10:00.000Z',
      path: '/guide',
      page_load: false,
      source: null,
      engagement: { ms: 45_000, scroll: 80 },
    });
    expect(engaged!.token).toBe(yesterday!.token);
    expect(engaged!.token).not.toBe(today!.token);
    // Neither a screen size nor since_ms is queued: the engagement is only how long and how far.
    expect(engaged!.screen).toBeUndefined();
    expect(JSON.stringify(engaged)).not.toContain('since');
  });

  it("takes an engagement on /api/hits, its since_ms counted back from the hit's at", async () => {
    const answer = await hits(server({ engagement: { ms: 1_000, scroll: 0, since_ms: 60_000 } }));
    expect(answer).toMatchObject({ status: 202, json: { accepted: 1, ignored: 0 } });
    const [hit] = await queued();
    expect(hit).toMatchObject({ at: '2026-10-23T00:08:00.000Z', page_load: false, engagement: { ms: 1_000, scroll: 0 } });
    expect((await hits(server({ engagement: { ms: 0, scroll: 100 } }))).status).toBe(202);
    expect((await queued())[1]).toMatchObject({ at: '2026-10-23T00:09:00.000Z', engagement: { ms: 0, scroll: 100 } });
  });

  it("leaves a bot's engagement out, as ignored, while its page load is still queued as a bot's", async () => {
    const bot = (body: unknown) => beacon(body, AGENTS.googlebot);
    expect((await bot({ path: '/guide' })).json).toEqual({ accepted: 1, ignored: 0 });
    expect((await bot({ path: '/guide', engagement: { ms: 5_000, scroll: 10 } })).json).toEqual({ accepted: 0, ignored: 1 });
    const answer = await hits(server({ user_agent: AGENTS.googlebot, engagement: { ms: 5_000, scroll: 10 } }));
    expect(answer.json).toEqual({ accepted: 0, ignored: 1 });
    expect((await queued()).map((hit) => [hit.bot, hit.engagement])).toEqual([[true, undefined]]);
  });

  it('refuses anything else as a 400 naming engagement, and queues nothing', async () => {
    const wrong = [
      { ms: -1, scroll: 0 },
      { ms: 86_400_001, scroll: 0 },
      { ms: 1_000, scroll: 101 },
      { ms: '1000', scroll: 10 },
      { ms: 1_000, scroll: '10' },
      { ms: 1.5, scroll: 10 },
      { ms: 1_000 },
      { ms: 1_000, scroll: 10, since_ms: 86_400_001 },
      { ms: 1_000, scroll: 10, since_ms: -5 },
      { ms: 1_000, scroll: 10, seen: 'x' },
      '45s',
      null,
    ];
    for (const engagement of wrong) {
      for (const answer of [await beacon({ path: '/', engagement }), await hits(server({ engagement }))]) {
        expect(answer.status, JSON.stringify(engagement)).toBe(400);
        expect(JSON.stringify(answer.json), JSON.stringify(engagement)).toContain('engagement');
      }
    }
    // An engagement is neither an event nor a page load, nor a scan of a subject.
    const alone = [
      await beacon({ path: '/', event: 'signup', engagement: { ms: 1, scroll: 1 } }),
      await beacon({ path: '/', subject: 'tree-42', engagement: { ms: 1, scroll: 1 } }),
      await hits(server({ page_load: true, engagement: { ms: 1, scroll: 1 } })),
      await hits(server({ event: 'signup', engagement: { ms: 1, scroll: 1 } })),
    ];
    for (const answer of alone) expect(answer).toMatchObject({ status: 400, json: { error: { issues: [{ path: 'engagement' }] } } });
    expect(await queued()).toEqual([]);
  });

  it("makes a page load linked from the site's own origin a hop within the site: no source, and never a host of its own", async () => {
    expect((await beacon({ path: '/two', referrer: `${ORIGIN}/one` })).status).toBe(202);
    expect((await beacon({ path: '/', referrer: 'https://www.linkedin.com/' })).status).toBe(202);
    expect((await hits(server({ page_load: true, referrer: `${ORIGIN}/guide` }))).status).toBe(202);
    // Another origin of the same host is another site.
    expect((await hits(server({ page_load: true, referrer: 'https://site.example.evil.test/' }))).status).toBe(202);
    // Its www. name and another port are the site too; a request that is not a page load keeps no referrer at all.
    expect((await hits(server({ page_load: true, referrer: 'https://www.site.example:8443/x' }))).status).toBe(202);
    expect((await hits(server({ referrer: `${ORIGIN}/guide` }))).status).toBe(202);
    expect((await queued()).map((hit) => hit.source)).toEqual([
      '(site)',
      'www.linkedin.com',
      '(site)',
      'site.example.evil.test',
      '(site)',
      null,
    ]);
  });
});
