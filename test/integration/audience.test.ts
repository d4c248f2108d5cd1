import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf, storedDocuments } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

// The clock stands at 12:00:30 UTC of today (or yesterday, before then), never ahead of the store's own clock, whose
// `_ts` the `now` read filters on.
const real = new Date();
const today = real.toISOString().slice(0, 10);
const D2 = real.getTime() >= Date.parse(`${today}T12:00:30Z`) ? today : new Date(real.getTime() - 86_400_000).toISOString().slice(0, 10);
const D1 = new Date(Date.parse(`${D2}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const NOW = `${D2}T12:00:30Z`;

/** Visitors from known networks (the packaged table places them), on three browsers on desktop and phone. */
const who = {
  us: { address: '73.15.1.1', agent: AGENTS.chromeWindows },
  de: { address: '193.99.144.80', agent: AGENTS.firefoxLinux },
  de6: { address: '2003:e0:1::1', agent: AGENTS.firefoxLinux },
  fr: { address: '212.27.48.10', agent: AGENTS.safariIphone },
  jp: { address: '153.240.1.1', agent: CHROME_ANDROID },
  gb: { address: '212.58.244.20', agent: AGENTS.chromeWindows },
  crawler: { address: '66.249.66.1', agent: AGENTS.googlebot },
  loopback: { address: '127.0.0.1', agent: AGENTS.curl },
} as const;

const hit = (name: keyof typeof who, at: string, path: string, pageLoad = true) => ({
  at,
  address: who[name].address,
  user_agent: who[name].agent,
  path,
  page_load: pageLoad,
});

const yesterday = [
  hit('us', `${D1}T10:00:00Z`, '/?utm_source=LinkedIn&utm_medium=social&utm_campaign=Spring%20Launch&token=secret123'),
  hit('de6', `${D1}T15:00:00Z`, '/'),
  hit('jp', `${D1}T20:00:00Z`, '/projects?sort=new'),
];
const todays = [
  hit('fr', `${D2}T09:00:00Z`, '/?utm_source=linkedin&utm_medium=social&utm_campaign=spring-launch'),
  hit('gb', `${D2}T11:29:00Z`, '/old'),
  hit('gb', `${D2}T11:31:00Z`, '/'),
  hit('de', `${D2}T11:45:00Z`, '/?ref=Newsletter&utm_medium=EMAIL&session=abc123def'),
  hit('us', `${D2}T11:50:00Z`, '/about'),
  hit('crawler', `${D2}T11:55:00Z`, '/', false),
  hit('loopback', `${D2}T11:56:00Z`, '/health', false),
  hit('de', `${D2}T11:58:00Z`, '/resume'),
  hit('fr', `${D2}T12:00:10Z`, '/'),
];

async function get(t: TestHost, path: string) {
  const response = await fetch(`${t.host.url}${path}`, { headers: { authorization: `Bearer ${t.env.OPERATOR_KEY}` } });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    text,
    json: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null,
  };
}

const operations = (t: TestHost) => {
  const { reads, writes, queries } = t.root.store.stats();
  return { reads, writes, queries };
};

async function costOf(t: TestHost, path: string) {
  const before = operations(t);
  const answer = await get(t, path);
  expect(answer.status).toBe(200);
  const after = operations(t);
  return { reads: after.reads - before.reads, writes: after.writes - before.writes, queries: after.queries - before.queries };
}

describe('the audience through the local stack: countries, devices, campaigns, now and the export', () => {
  let t: TestHost;

  beforeAll(async () => {
    t = await startTestHost({ overrides: { clock: fixedClock(NOW) }, queueSettings: { visibilityTimeout: 200 } });
    await containerOf(t.env);
    for (const hits of [yesterday, todays]) {
      const answer = await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! });
      expect(answer).toMatchObject({ status: 202, json: { accepted: hits.length, ignored: 0 } });
    }
    await t.host.drain();
    await t.fold();
  });
  afterAll(() => t?.stop());

  it('answers countries, devices and campaigns on the period report, from people only, exactly', async () => {
    const { json } = await get(t, '/api/admin/activity');
    expect(json.countries).toEqual([
      { country: 'DE', visitor_days: 2 },
      { country: 'US', visitor_days: 2 },
      { country: 'FR', visitor_days: 1 },
      { country: 'GB', visitor_days: 1 },
      { country: 'JP', visitor_days: 1 },
    ]);
    expect(json.devices).toEqual({
      browsers: [
        { name: 'chrome', visitor_days: 4 },
        { name: 'firefox', visitor_days: 2 },
        { name: 'safari', visitor_days: 1 },
      ],
      systems: [
        { name: 'windows', visitor_days: 3 },
        { name: 'linux', visitor_days: 2 },
        { name: 'android', visitor_days: 1 },
        { name: 'ios', visitor_days: 1 },
      ],
      types: [
        { name: 'desktop', visitor_days: 5 },
        { name: 'mobile', visitor_days: 2 },
      ],
      // A server's hits carry no viewport width.
      screens: [],
    });
    expect(json.campaigns).toEqual([
      { source: 'linkedin', medium: 'social', campaign: 'spring-launch', page_loads: 2 },
      { source: 'newsletter', medium: 'email', campaign: null, page_loads: 1 },
    ]);
  });

  it('answers now: the people of the last 30 minutes by daily token, by minute, and their top paths', async () => {
    const { status, json } = await get(t, '/api/admin/now');
    expect(status).toBe(200);
    expect(json.people_last_30_minutes).toBe(4);
    expect(json.from).toBe(`${D2}T11:31:00.000Z`);
    expect(json.by_minute).toHaveLength(30);
    expect(json.by_minute.filter((m: { people: number }) => m.people > 0)).toEqual(
      ['11:31', '11:45', '11:50', '11:58', '12:00'].map((minute) => ({ minute: `${D2}T${minute}:00.000Z`, people: 1 })),
    );
    expect(json.top_paths).toEqual([
      { path: '/', requests: 3 },
      { path: '/about', requests: 1 },
      { path: '/resume', requests: 1 },
    ]);
  });

  it('exports one row a day as JSON and as CSV, with people new, visits, kinds, sources, countries, browsers, campaigns', async () => {
    const json = await get(t, `/api/admin/export?from=${D1}&to=${D2}&format=json`);
    expect(json.status).toBe(200);
    expect(json.json).toEqual({
      from: D1,
      to: D2,
      days: 2,
      filters: [],
      time_zone: 'UTC',
      rows: [
        {
          day: D1,
          people_new: 3,
          visits: 3,
          visitor_days: { people: 3, scanners: 0, self: 0, total: 3 },
          sources: { linkedin: 0, github: 0, search: 0, other: 0, typed: 3 },
          countries: [
            { country: 'DE', visitor_days: 1 },
            { country: 'JP', visitor_days: 1 },
            { country: 'US', visitor_days: 1 },
          ],
          browsers: [
            { name: 'chrome', visitor_days: 2 },
            { name: 'firefox', visitor_days: 1 },
          ],
          campaigns: [{ source: 'linkedin', medium: 'social', campaign: 'spring-launch', page_loads: 1 }],
          screens: [],
          // Three visits of one page each, timed by their requests (no engagement): each bounced, each lasted 0 s.
          views_per_visit: 1,
          bounce_rate: 100,
          visit_duration: 0,
        },
        {
          day: D2,
          people_new: 3,
          visits: 4,
          visitor_days: { people: 4, scanners: 1, self: 1, total: 6 },
          sources: { linkedin: 0, github: 0, search: 0, other: 0, typed: 7 },
          countries: [
            { country: 'DE', visitor_days: 1 },
            { country: 'FR', visitor_days: 1 },
            { country: 'GB', visitor_days: 1 },
            { country: 'US', visitor_days: 1 },
          ],
          browsers: [
            { name: 'chrome', visitor_days: 2 },
            { name: 'firefox', visitor_days: 1 },
            { name: 'safari', visitor_days: 1 },
          ],
          campaigns: [
            { source: 'linkedin', medium: 'social', campaign: 'spring-launch', page_loads: 1 },
            { source: 'newsletter', medium: 'email', campaign: null, page_loads: 1 },
          ],
          screens: [],
          // 7 page loads over 4 visits; us bounced; fr 10,810 s, gb 120 s, de 780 s and us 0 s first to last request.
          views_per_visit: 1.75,
          bounce_rate: 25,
          visit_duration: 2928,
        },
      ],
    });
    const csv = await get(t, `/api/admin/export?from=${D1}&to=${D2}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.type).toBe('text/csv; charset=utf-8');
    expect(csv.text.split('\r\n')).toEqual([
      'day,people_new,visits,people,scanners,self,total,linkedin,github,search,other,typed,countries,browsers,campaigns,screens,views_per_visit,bounce_rate,visit_duration',
      `${D1},3,3,3,0,0,3,0,0,0,0,3,DE=1; JP=1; US=1,chrome=2; firefox=1,linkedin/social/spring-launch=1,,1,100,0`,
      `${D2},3,4,4,1,1,6,0,0,0,0,7,DE=1; FR=1; GB=1; US=1,chrome=2; firefox=1; safari=1,linkedin/social/spring-launch=1; newsletter/email/=1,,1.75,25,2928`,
      '',
    ]);
  });

  it('keeps nothing of a query string but the four tags', async () => {
    const { documents } = await storedDocuments(await containerOf(t.env));
    const text = JSON.stringify(documents);
    for (const dropped of ['secret123', 'token=', 'session', 'abc123def', 'sort', '?']) expect(text).not.toContain(dropped);
  });

  it('refuses a bad range, naming the parameter, and needs the operator key', async () => {
    for (const [query, name] of [
      ['', 'from'],
      [`from=${D1}`, 'to'],
      [`from=${D2}&to=${D1}`, 'from'],
      [`from=2025-01-01&to=2026-02-05`, 'to'],
      [`from=${D1}&to=${D2}&format=xml`, 'format'],
      [`from=2026-02-30&to=${D2}`, 'from'],
    ] as const) {
      const { status, json } = await get(t, `/api/admin/export?${query}`);
      expect(status).toBe(400);
      expect(json.error.issues[0].path).toBe(name);
    }
    for (const path of ['/api/admin/export?from=2026-01-01&to=2026-01-02', '/api/admin/now']) {
      expect((await fetch(`${t.host.url}${path}`)).status).toBe(401);
    }
  });

  it('costs one query for now, and a point read a day kept asked and two for the summaries for an export', async () => {
    const day = (offset: number) => new Date(Date.parse(`${D2}T00:00:00Z`) - offset * 86_400_000).toISOString().slice(0, 10);
    const now = await costOf(t, '/api/admin/now');
    const export30 = await costOf(t, `/api/admin/export?from=${day(29)}&to=${D2}&format=csv`);
    const export400 = await costOf(t, `/api/admin/export?from=${day(399)}&to=${D2}&format=json`);
    console.log(
      `store operations: now ${JSON.stringify(now)}, export of 30 days ${JSON.stringify(export30)}, of 400 days ${JSON.stringify(export400)}`,
    );
    expect(now).toEqual({ reads: 0, writes: 0, queries: 1 });
    // The days kept are D1 and D2: the days before them are rows of zeros, not reads; the summaries are read twice.
    expect(export30).toEqual({ reads: 2 + 4, writes: 0, queries: 0 });
    // JSON reads the person-ids migration's progress too, for identity_from.
    expect(export400).toEqual({ ...export30, reads: export30.reads + 1 });
    const rows = (await get(t, `/api/admin/export?from=${day(399)}&to=${D2}`)).json.rows;
    expect(rows).toHaveLength(400);
    expect(rows[0]).toMatchObject({ day: day(399), people_new: 0, visits: 0, countries: [] });
  });
});
