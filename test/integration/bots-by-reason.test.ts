import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { hitsMessageSchema } from '../../shared/core/message';
import type { HitQueue } from '../../shared/core/ports/queue';
import { azureHitQueue, queueClient } from '../../adapters/azure-hit-queue';
import { containerOf } from '../support/cosmos';
import { testEnv } from '../support/env';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, browserHeaders, post } from '../support/http';
import { DATA_CENTRES, PEOPLES_NETWORKS } from '../support/networks';

// The measurement, through the local stack: 21 addresses of data-centre networks and 24 of home and mobile
// networks, each making three page loads with the same desktop Chrome agent (the site's server forwarding the
// browser's headers), which main counted as 45 people; then one of each other kind of bot, and visitor-days whose bot
// requests had several reasons.
const DAY = '2026-10-23';
const NOW = `${DAY}T18:00:00Z`;
const chrome = AGENTS.chromeWindows;
const forwarded = browserHeaders(chrome);
const centres = [...new Set(DATA_CENTRES.map(([provider]) => provider.replace(/ \(.*$/, '')))]
  .flatMap((provider) => DATA_CENTRES.filter(([p]) => p.startsWith(provider)).slice(0, 2))
  .slice(0, 21);
const homes = PEOPLES_NETWORKS.map(([, address]) => address);

type Hit = { at: string; address: string; user_agent: string; path: string; page_load?: boolean; headers?: Record<string, string> };
const at = (minute: number) => `${DAY}T10:${String(minute % 60).padStart(2, '0')}:00Z`;
const threeLoads = (address: string, more: Partial<Hit> = {}): Hit[] =>
  ['/', '/about', '/resume'].map((path, i) => ({
    at: at(i),
    address,
    user_agent: chrome,
    path,
    page_load: true,
    headers: forwarded,
    ...more,
  }));

const hits: Hit[] = [
  ...centres.flatMap(([, address]) => threeLoads(address)),
  ...homes.flatMap((address) => threeLoads(address)),
  // By agent: two crawlers and a library.
  { at: at(10), address: '66.249.66.1', user_agent: AGENTS.googlebot, path: '/' },
  { at: at(11), address: '157.55.39.1', user_agent: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', path: '/' },
  { at: at(12), address: '198.51.100.60', user_agent: AGENTS.curl, path: '/about' },
  // By path: a browser's agent from an ordinary network, probing for secrets.
  { at: at(13), address: '198.51.100.61', user_agent: chrome, path: '/.env', headers: forwarded },
  { at: at(14), address: '198.51.100.62', user_agent: chrome, path: '/wp-login.php', headers: forwarded },
  { at: at(15), address: '198.51.100.62', user_agent: chrome, path: '/.git/config', headers: forwarded },
  // By signals: a Chrome agent whose request had no Accept-Language (the site forwarded its whole header set, which a
  // User-Agent and an Accept show is whole; an empty or partial set says nothing of a header it lacks).
  {
    at: at(16),
    address: '198.51.100.63',
    user_agent: chrome,
    path: '/',
    page_load: true,
    headers: { 'user-agent': chrome, accept: '*/*' },
  },
  // A crawler and a browser on one address are two visitor-days (a visit is one person's day): one by agent, one by path.
  { at: at(20), address: '198.51.100.70', user_agent: AGENTS.googlebot, path: '/' },
  { at: at(21), address: '198.51.100.70', user_agent: chrome, path: '/xmlrpc.php', headers: forwarded },
  { at: at(22), address: '198.51.100.70', user_agent: chrome, path: '/.env', headers: forwarded },
  { at: at(23), address: '198.51.100.71', user_agent: AGENTS.curl, path: '/' },
  { at: at(24), address: '198.51.100.71', user_agent: chrome, path: '/.git/config', headers: forwarded },
  // A person whose site's server forwards no headers: the signals are not judged.
  { at: at(30), address: '203.0.113.40', user_agent: chrome, path: '/', page_load: true },
];

describe('the visitor-days left out, by reason, through the local host on Azurite and the local Cosmos server', () => {
  let t: TestHost;
  const queued: unknown[] = [];

  beforeAll(async () => {
    const env = testEnv({ ALLOWED_ORIGINS: 'https://site.example', TRUSTED_PROXY_HOPS: '1' });
    // Every message the endpoints queue, as it is sent to the hits queue: a peek would race the host's listener.
    const real = azureHitQueue(queueClient({ connectionString: env.AzureWebJobsStorage! }, env.HITS_QUEUE!));
    const hitQueue: HitQueue = {
      sendAll: async (messages) => {
        for (const text of messages) queued.push(...hitsMessageSchema.parse(JSON.parse(Buffer.from(text, 'base64').toString('utf8'))).hits);
        return real.sendAll(messages);
      },
    };
    t = await startTestHost({ env, overrides: { clock: fixedClock(NOW), hitQueue } });
    await containerOf(t.env);
    const answer = await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! });
    expect(answer).toMatchObject({ status: 202, json: { accepted: hits.length, ignored: 0 } });
    // By signals, on the beacon: Node's fetch with a Chrome agent, no Accept-Language, fetch metadata and no hints.
    const beacon = await post(
      `${t.host.url}/api/beacon`,
      { path: '/' },
      { origin: 'https://site.example', 'user-agent': chrome, 'x-forwarded-for': '198.51.100.64' },
    );
    expect(beacon.status).toBe(202);
    await t.host.drain();
    await t.fold();
  }, 120_000);

  afterAll(async () => {
    await t?.stop();
  });

  it("queues the beacon's hit as a bot with its reason, signals, and nothing of its headers", () => {
    // Every hit queued, the beacon's among them.
    // The beacon's and the server's hit without Accept-Language; no network is queued beside them.
    const bySignals = (queued as Array<Record<string, unknown>>).filter((hit) => hit.reason === 'signals');
    expect(bySignals).toEqual([
      expect.objectContaining({ bot: true, path: '/', network: 'x' }),
      expect.objectContaining({ bot: true, path: '/', network: 'x' }),
    ]);
    expect(JSON.stringify(queued)).not.toMatch(/Chrome|en-GB|198\.51\.100\.64/);
  });

  it('counts the 21 data-centre visitors as left out by network and the 24 on home and mobile networks as people', async () => {
    expect(centres).toHaveLength(21);
    const response = await fetch(`${t.host.url}/api/admin/activity?days=1`, { headers: { authorization: `Bearer ${t.env.OPERATOR_KEY}` } });
    const { by_day } = (await response.json()) as { by_day: Array<Record<string, unknown>> };
    expect(by_day.map(({ people_new: _new, returning: _back, ...kinds }) => kinds)).toEqual([
      // People's page loads are another test's (period-report.test.ts): here only the kinds and reasons.
      {
        day: DAY,
        people: 25,
        scanners: 32,
        self: 0,
        total: 57,
        left_out: { agent: 5, path: 4, network: 21, signals: 2 },
        page_loads: expect.any(Number),
      },
    ]);
  });

  it("names each row's reason in the day's table, and the people count holds only the people", async () => {
    const day = await fetch(`${t.host.url}/api/admin/activity/visitors?day=${DAY}`, {
      headers: { authorization: `Bearer ${t.env.OPERATOR_KEY}` },
    });
    const { visitors } = (await day.json()) as { visitors: Array<{ left_out: string | null; kind: string }> };
    const rowsOf = (reason: string | null) => visitors.filter((row) => row.left_out === reason).length;
    expect([rowsOf('network'), rowsOf('agent'), rowsOf('path'), rowsOf('signals'), rowsOf(null)]).toEqual([21, 5, 4, 2, 25]);
    const people = await fetch(`${t.host.url}/api/admin/visitors/people`, { headers: { authorization: `Bearer ${t.env.OPERATOR_KEY}` } });
    expect(((await people.json()) as { people_all_time: number }).people_all_time).toBe(25);
  });
});
