import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { blobCall, blobLocationFromConnectionString } from '../../adapters/azure-blob';
import { DAY_FILES_CONTAINER } from '../../adapters/day-files/blob-day-files';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

type Kind = 'people' | 'scanners' | 'self';
type Group = 'linkedin' | 'github' | 'search' | 'other' | 'typed';

/** Who sends the fixture's hits, and what the test expects each to be counted as. */
const visitors = {
  ann: { address: '203.0.113.10', agent: AGENTS.chromeWindows, kind: 'people' },
  ben: { address: '203.0.113.11', agent: AGENTS.firefoxLinux, kind: 'people' },
  cat: { address: '203.0.113.12', agent: AGENTS.safariIphone, kind: 'people' },
  // A scanner-looking path on one store and a page on the other: one visitor-day, a person.
  dan: { address: '203.0.113.13', agent: AGENTS.chromeWindows, kind: 'people' },
  eve: { address: '2001:db8::5', agent: AGENTS.firefoxLinux, kind: 'people' },
  crawler: { address: '198.51.100.20', agent: AGENTS.googlebot, kind: 'scanners' },
  probe: { address: '198.51.100.21', agent: AGENTS.curl, kind: 'scanners' },
  loopback: { address: '127.0.0.1', agent: AGENTS.curl, kind: 'self' },
  ownNetwork: { address: '10.20.3.4', agent: AGENTS.chromeWindows, kind: 'self' },
  ownTool: { address: '198.51.100.30', agent: `${AGENTS.chromeWindows} headcount-self`, kind: 'self' },
} as const satisfies Record<string, { address: string; agent: string; kind: Kind }>;

/** One request of the fixture with what the test expects of it: whether it looks like a bot, and a page load's group. */
interface Row {
  who: keyof typeof visitors;
  at: string;
  store: 'cosmos' | 'sql';
  path: string;
  referrer?: string;
  group?: Group;
  host?: string;
  bot?: boolean;
}

const D0 = '2026-10-21';
const D1 = '2026-10-22';
const D2 = '2026-10-23';
const NOW = `${D2}T12:30:00Z`;
const FUNNEL_STEPS = 'landing=/|about=/about,/about/|resume=/resume,/resume.pdf|projects=/projects';

const fixture: Row[] = [
  { who: 'ann', at: `${D0}T09:00:00Z`, store: 'cosmos', path: '/', referrer: 'https://www.linkedin.com/feed/', group: 'linkedin' },
  { who: 'ann', at: `${D0}T09:01:00Z`, store: 'cosmos', path: '/about', group: 'typed' },
  { who: 'ann', at: `${D0}T14:00:00Z`, store: 'sql', path: '/resume.pdf', referrer: 'https://lnkd.in/abc', group: 'linkedin' },
  { who: 'crawler', at: `${D0}T09:30:00Z`, store: 'cosmos', path: '/', referrer: 'https://www.google.com/', group: 'search', bot: true },
  { who: 'crawler', at: `${D0}T14:30:00Z`, store: 'cosmos', path: '/about', bot: true },
  { who: 'probe', at: `${D0}T15:00:00Z`, store: 'sql', path: '/wp-login.php', bot: true },
  { who: 'probe', at: `${D0}T15:00:01Z`, store: 'sql', path: '/.env', bot: true },
  { who: 'ann', at: `${D1}T10:00:00Z`, store: 'cosmos', path: '/', referrer: 'https://github.com/someone', group: 'github' },
  { who: 'ben', at: `${D1}T11:00:00Z`, store: 'cosmos', path: '/', referrer: 'https://gist.github.com/someone/1', group: 'github' },
  { who: 'ben', at: `${D1}T11:02:00Z`, store: 'cosmos', path: '/about/', referrer: 'https://www.google.co.uk/', group: 'search' },
  { who: 'ben', at: `${D1}T11:05:00Z`, store: 'cosmos', path: '/api/data?q=1', referrer: 'https://blog.example.org/' },
  { who: 'ben', at: `${D1}T11:10:00Z`, store: 'sql', path: '/resume', group: 'typed' },
  // curl's agent looks like a bot, and the loopback makes it the site's own read, which is stronger.
  { who: 'loopback', at: `${D1}T12:00:00Z`, store: 'cosmos', path: '/health', bot: true },
  { who: 'ownNetwork', at: `${D1}T12:01:00Z`, store: 'sql', path: '/', group: 'typed' },
  { who: 'cat', at: `${D2}T08:00:00Z`, store: 'sql', path: '/', referrer: 'https://www.bing.com/search?q=x', group: 'search' },
  { who: 'cat', at: `${D2}T08:01:00Z`, store: 'sql', path: '/about', referrer: 'https://duckduckgo.com/', group: 'search' },
  { who: 'dan', at: `${D2}T09:00:00Z`, store: 'cosmos', path: '/.env', bot: true },
  {
    who: 'dan',
    at: `${D2}T09:05:00Z`,
    store: 'sql',
    path: '/',
    referrer: 'https://blog.example.org/post/1',
    group: 'other',
    host: 'blog.example.org',
  },
  {
    who: 'dan',
    at: `${D2}T09:06:00Z`,
    store: 'sql',
    path: '/projects',
    referrer: 'https://www.blog.example.org/',
    group: 'other',
    host: 'blog.example.org',
  },
  {
    who: 'eve',
    at: `${D2}T10:00:00Z`,
    store: 'cosmos',
    path: '/',
    referrer: 'https://m.facebook.com/',
    group: 'other',
    host: 'facebook.com',
  },
  { who: 'eve', at: `${D2}T10:01:00Z`, store: 'cosmos', path: '/resume.pdf', referrer: 'not a link', group: 'typed' },
  { who: 'ownTool', at: `${D2}T11:00:00Z`, store: 'cosmos', path: '/', group: 'typed' },
  { who: 'crawler', at: `${D2}T11:30:00Z`, store: 'sql', path: '/resume', bot: true },
];

const dayOf = (at: string) => at.slice(0, 10);
const kindOfRow = (row: Row) => visitors[row.who].kind;
const kept = (row: Row) => row.path.split('?')[0]!;
const isPageLoad = (row: Row) => row.group !== undefined || (row.referrer !== undefined && !row.path.startsWith('/api/'));
const byCountThenName = ([a, x]: [string, number], [b, y]: [string, number]) => y - x || (a < b ? -1 : 1);

/** The fixture's visitor-days, worked out from the rows alone: one per visitor per day, whichever stores it reached. */
function expectedVisitorDays(rows: Row[]) {
  const days = new Map<string, { day: string; kind: Kind; paths: Set<string> }>();
  for (const row of rows) {
    const key = `${dayOf(row.at)}|${row.who}`;
    const visitorDay = days.get(key) ?? { day: dayOf(row.at), kind: kindOfRow(row), paths: new Set<string>() };
    visitorDay.paths.add(kept(row));
    days.set(key, visitorDay);
  }
  return [...days.values()];
}

function expectedByDay(days: string[]) {
  const visitorDays = expectedVisitorDays(fixture);
  return days.map((day) => {
    const of = (kind: Kind) => visitorDays.filter((v) => v.day === day && v.kind === kind).length;
    // The fixture's scanners all name themselves by their agent (a crawler, curl): left out by agent, none by another reason.
    return {
      day,
      people: of('people'),
      scanners: of('scanners'),
      self: of('self'),
      total: visitorDays.filter((v) => v.day === day).length,
      left_out: { agent: of('scanners'), path: 0, network: 0, signals: 0 },
      page_loads: fixture.filter((row) => dayOf(row.at) === day && kindOfRow(row) === 'people' && isPageLoad(row)).length,
    };
  });
}

function expectedSources(days: string[]) {
  const loads = fixture.filter((row) => days.includes(dayOf(row.at)) && kindOfRow(row) === 'people' && row.group !== undefined);
  const of = (group: Group) => loads.filter((row) => row.group === group).length;
  const hosts: Record<string, number> = {};
  for (const row of loads) if (row.host) hosts[row.host] = (hosts[row.host] ?? 0) + 1;
  return {
    linkedin: of('linkedin'),
    github: of('github'),
    search: of('search'),
    other: of('other'),
    typed: of('typed'),
    other_hosts: Object.entries(hosts)
      .sort(byCountThenName)
      .map(([host, page_loads]) => ({ host, page_loads })),
  };
}

function expectedPath(days: string[]) {
  const readers = expectedVisitorDays(fixture.filter((row) => days.includes(dayOf(row.at)))).filter((v) => v.kind === 'people');
  return FUNNEL_STEPS.split('|').map((text) => {
    const [step, list] = text.split('=') as [string, string];
    const paths = list.split(',');
    return { step, paths, visitor_days: readers.filter((reader) => paths.some((path) => reader.paths.has(path))).length };
  });
}

/** The last 48 hours by store, from the rows alone: every hour for each store seen in them. */
function expectedHours() {
  const end = Date.parse(NOW) - (Date.parse(NOW) % 3_600_000);
  const hours = Array.from({ length: 48 }, (_, i) => new Date(end - (47 - i) * 3_600_000).toISOString());
  const inWindow = fixture.filter((row) => Date.parse(row.at) >= Date.parse(hours[0]!));
  const stores = [...new Set(inWindow.map((row) => row.store))].sort();
  return hours.flatMap((hour) =>
    stores.map((store) => {
      const rows = inWindow.filter(
        (row) => row.store === store && new Date(Date.parse(row.at) - (Date.parse(row.at) % 3_600_000)).toISOString() === hour,
      );
      const paths: Record<string, number> = {};
      for (const row of rows) paths[kept(row)] = (paths[kept(row)] ?? 0) + 1;
      return {
        store,
        // The site's clock hour: this site's zone is UTC.
        hour: `${hour.slice(0, 19)}+00:00`,
        requests: rows.length,
        bots: rows.filter((row) => row.bot).length,
        self: rows.filter((row) => kindOfRow(row) === 'self').length,
        top_paths: Object.entries(paths)
          .sort(byCountThenName)
          .slice(0, 5)
          .map(([path, requests]) => ({ path, requests })),
      };
    }),
  );
}

/** The days of a window ending today, oldest first. */
const window = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    new Date(Date.parse(`${D2}T00:00:00Z`) - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );

async function get(t: TestHost, path: string, key: string | null = t.env.OPERATOR_KEY!) {
  const response = await fetch(`${t.host.url}${path}`, { headers: key === null ? {} : { authorization: `Bearer ${key}` } });
  return { status: response.status, json: await response.json() };
}

/** A day of by_day without its new and returning people: the visitor-days by kind the fixture works out. */
const kindsOf = (rows: Array<Record<string, unknown>>) => rows.map(({ people_new: _new, returning: _back, ...kinds }) => kinds);

describe('the period report through the local host, from documents keep-hits kept on the local Cosmos server', () => {
  let t: TestHost;

  beforeAll(async () => {
    t = await startTestHost({ env: { FUNNEL_STEPS }, overrides: { clock: fixedClock(NOW) }, queueSettings: { visibilityTimeout: 200 } });
    await containerOf(t.env);
    const hits = fixture.map((row) => ({
      at: row.at,
      address: visitors[row.who].address,
      user_agent: visitors[row.who].agent,
      path: row.path,
      store: row.store,
      referrer: row.referrer,
      page_load: isPageLoad(row),
    }));
    const answer = await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! });
    expect(answer).toMatchObject({ status: 202, json: { accepted: fixture.length, ignored: 0 } });
    await t.host.drain();
    await t.fold();
  });
  afterAll(() => t.stop());

  it('answers by_day, hours, sources and path exactly as the fixture says, every day of the window present', async () => {
    const { status, json } = await get(t, '/api/admin/activity');
    expect(status).toBe(200);
    const days = window(30);
    expect(json).toMatchObject({ days: 30, from: days[0], to: D2 });
    expect(kindsOf(json.by_day)).toEqual(expectedByDay(days));
    // Each day's new people are the count's, exact; returning, those who came on a day after their first: ann, back on D1.
    const count = await get(t, '/api/admin/visitors/people');
    const newOn = new Map(count.json.people_new_by_day.map((row: { day: string; people: number }) => [row.day, row.people]));
    for (const row of json.by_day.slice(-3)) expect(row.people_new, row.day).toBe(newOn.get(row.day) ?? 0);
    expect(json.by_day.slice(-3).map((row: { returning: number }) => row.returning)).toEqual([0, 1, 0]);
    expect(json.headline).toMatchObject({ people: json.headline.people_new, returning: 1 });
    expect(kindsOf(json.by_day.slice(-3))).toEqual([
      { day: D0, people: 1, scanners: 2, self: 0, total: 3, left_out: { agent: 2, path: 0, network: 0, signals: 0 }, page_loads: 3 },
      { day: D1, people: 2, scanners: 0, self: 2, total: 4, left_out: { agent: 0, path: 0, network: 0, signals: 0 }, page_loads: 4 },
      { day: D2, people: 3, scanners: 1, self: 1, total: 5, left_out: { agent: 1, path: 0, network: 0, signals: 0 }, page_loads: 6 },
    ]);
    expect(json.hours).toEqual(expectedHours());
    expect(json.sources).toEqual(expectedSources(days));
    expect(json.sources).toMatchObject({ linkedin: 2, github: 2, search: 3, other: 3, typed: 3 });
    expect(json.path).toEqual(expectedPath(days));
    expect(json.path.map((step: { visitor_days: number }) => step.visitor_days)).toEqual([6, 3, 3, 1]);
    expect(json.availability).toEqual({
      available: true,
      reason: expect.stringContaining('Azure Cosmos DB'),
      retention: 'kept in Azure Cosmos DB with no expiry',
    });
  });

  it('reads only the days asked for: days=2 leaves the first day out of every figure', async () => {
    const { json } = await get(t, '/api/admin/activity?days=2');
    const days = window(2);
    expect(kindsOf(json.by_day)).toEqual(expectedByDay(days));
    expect(json.sources).toEqual(expectedSources(days));
    expect(json.path).toEqual(expectedPath(days));
  });

  it("answers the day's visitor-day rows, one per token per store, with nothing that names anyone", async () => {
    const { status, json } = await get(t, `/api/admin/activity/visitors?day=${D1}`);
    expect(status).toBe(200);
    const rows = fixture.filter((row) => dayOf(row.at) === D1);
    const expected = [...new Set(rows.map((row) => `${row.who}|${row.store}`))].map((key) => {
      const mine = rows.filter((row) => `${row.who}|${row.store}` === key);
      return {
        store: mine[0]!.store,
        kind: kindOfRow(mine[0]!),
        first_seen: new Date(mine[0]!.at).toISOString(),
        last_seen: new Date(mine.at(-1)!.at).toISOString(),
        requests: mine.length,
        page_loads: mine.filter(isPageLoad).length,
      };
    });
    expect(
      json.visitors.map(({ store, kind, first_seen, last_seen, requests, page_loads }: any) => ({
        store,
        kind,
        first_seen,
        last_seen,
        requests,
        page_loads,
      })),
    ).toEqual(expected);
    // Ben read on both stores: two rows, one token.
    const ben = json.visitors.filter((row: { first_seen: string }) => row.first_seen.startsWith(`${D1}T11:`));
    expect(ben.map((row: { store: string; network: string }) => [row.store, row.network])).toEqual([
      ['cosmos', 'x'],
      ['sql', 'x'],
    ]);
    expect(ben[0].token).toMatch(/^[0-9a-f]{32}$/);
    expect(ben[1].token).toBe(ben[0].token);
    expect(ben[0].sources).toEqual([
      { host: 'gist.github.com', page_loads: 1 },
      { host: 'www.google.co.uk', page_loads: 1 },
    ]);
    expect(ben[0].top_paths).toEqual([
      { path: '/', requests: 1 },
      { path: '/about/', requests: 1 },
      { path: '/api/data', requests: 1 },
    ]);
    const text = JSON.stringify(json);
    for (const visitor of Object.values(visitors)) {
      expect(text).not.toContain(visitor.address);
      expect(text).not.toContain(visitor.agent);
    }
    expect(text).not.toContain('q=1');
  });

  it.each([
    ['/api/admin/activity?days=0', 'days'],
    ['/api/admin/activity?days=401', 'days'],
    ['/api/admin/activity?days=ten', 'days'],
    ['/api/admin/activity/visitors?day=2026-13-01', 'day'],
    ['/api/admin/activity/visitors?day=yesterday', 'day'],
    ['/api/admin/activity/visitors', 'day'],
  ])('answers %s with 400 naming %s', async (path, parameter) => {
    const { status, json } = await get(t, path);
    expect(status).toBe(400);
    expect(json.error.code).toBe('invalid_request');
    expect(json.error.message.startsWith(`${parameter}: `)).toBe(true);
    expect(json.error.issues.map((issue: { path: string }) => issue.path)).toEqual([parameter]);
  });

  it.each(['/api/admin/activity', `/api/admin/activity/visitors?day=${D1}`])(
    'answers %s with 401 without the key or with a wrong one',
    async (path) => {
      for (const key of [null, 'not-the-operator-key-000']) {
        const { status, json } = await get(t, path, key);
        expect(status).toBe(401);
        expect(json).toEqual({ error: { code: 'unauthorized', message: expect.stringContaining('operator key') } });
      }
      const viaHeader = await fetch(`${t.host.url}${path}`, { headers: { 'x-operator-key': t.env.OPERATOR_KEY! } });
      expect(viaHeader.status).toBe(200);
    },
  );

  it('filters every figure by a clicked value: one filter from its cells, "is not" and two filters from the visitor-days', async () => {
    const days = window(7);
    // The people's visitor-days of each day that hold what a predicate asks, worked out from the fixture's rows.
    const matching = (holds: (rows: Row[]) => boolean) =>
      days.map((day) => {
        const groups = new Map<string, Row[]>();
        for (const row of fixture.filter((one) => dayOf(one.at) === day && kindOfRow(one) === 'people'))
          groups.set(row.who, [...(groups.get(row.who) ?? []), row]);
        return [...groups.values()].filter(holds).length;
      });
    const people = (json: { by_day: Array<{ people: number; scanners: number; self: number }> }) => json.by_day.map((row) => row.people);
    const loaded = (path: string) => (rows: Row[]) => rows.some((row) => kept(row) === path);
    const fromSearch = (rows: Row[]) => rows.some((row) => row.group === 'search');

    const pdf = await get(t, '/api/admin/activity?days=7&filter=page:/resume.pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.json.filters).toEqual([{ dimension: 'page', value: '/resume.pdf', negated: false }]);
    expect(people(pdf.json)).toEqual(matching(loaded('/resume.pdf')));
    expect(people(pdf.json).slice(-3)).toEqual([1, 0, 1]);
    expect(pdf.json.by_day.every((row: { scanners: number; self: number }) => row.scanners === 0 && row.self === 0)).toBe(true);
    // Plausible's semantics: the whole visitor-day of those who loaded it, so their other pages show too.
    expect(pdf.json.pages.map((row: { path: string }) => row.path).sort()).toEqual(['/', '/about', '/resume.pdf']);
    // Both first came that week: new, with no one returning.
    expect(pdf.json.headline).toMatchObject({ people: 2, people_new: 2, returning: 0, visits: 2 });

    const search = await get(t, '/api/admin/activity?days=7&filter=source:search');
    expect(people(search.json)).toEqual(matching(fromSearch));
    const notSearch = await get(t, '/api/admin/activity?days=7&filter=!source:search');
    expect(people(notSearch.json)).toEqual(matching((rows) => !fromSearch(rows)));
    expect(people(notSearch.json).map((n, i) => n + people(search.json)[i]!)).toEqual(expectedByDay(days).map((row) => row.people));
    const both = await get(t, `/api/admin/activity?days=7&filter=${encodeURIComponent('page:/')}&filter=!source:search`);
    expect(people(both.json)).toEqual(matching((rows) => loaded('/')(rows) && !fromSearch(rows)));
    expect(both.json.filters).toHaveLength(2);

    const none = await get(t, '/api/admin/activity?days=7&filter=referrer:nowhere.example');
    expect(none.status).toBe(200);
    expect(people(none.json)).toEqual(days.map(() => 0));
    expect(none.json.headline).toMatchObject({ people: 0, visits: 0, page_loads: 0 });

    const csv = await fetch(`${t.host.url}/api/admin/export?from=${days[0]}&to=${D2}&format=json&filter=page:/resume.pdf`, {
      headers: { authorization: `Bearer ${t.env.OPERATOR_KEY}` },
    });
    const exported = await csv.json();
    expect(exported.filters).toEqual(pdf.json.filters);
    expect(exported).toMatchObject({ complete: true, filters_from: '0000-00-00' });
    expect(exported.rows.map((row: { visitor_days: { people: number } }) => row.visitor_days.people)).toEqual(people(pdf.json));
  });

  it.each([
    'filter=colour:red',
    'filter=page',
    'filter=page:',
    `filter=${'!'}`,
    ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']
      .map(() => 'filter=page:/')
      .join('&')
      .split('\n'),
  ])('answers /api/admin/activity?%s with 400 naming filter', async (query) => {
    const { status, json } = await get(t, `/api/admin/activity?${query}`);
    expect(status).toBe(400);
    expect(json.error.issues.map((issue: { path: string }) => issue.path)).toContain('filter');
  });

  it('clamps ten years asked to the days kept, so two filters read those days, and one filter answers any period', async () => {
    const two = await get(t, '/api/admin/activity?days=all&filter=page:/&filter=country:XX');
    expect(two.status).toBe(200);
    const long = await get(t, '/api/admin/activity?from=2016-01-01&to=2026-10-23&filter=page:/&filter=country:XX');
    expect(long.status).toBe(200);
    expect(long.json).toMatchObject({ from: D0, to: D2, clamped: { asked_from: '2016-01-01', asked_to: '2026-10-23' } });
    const one = await get(t, '/api/admin/activity?from=2016-01-01&to=2026-10-23&filter=page:/');
    expect(one.status).toBe(200);
    expect(one.json.by_day.reduce((sum: number, day: { people: number }) => sum + day.people, 0)).toBe(matchingDays());
  });

  it("answers several filters from the closed days' files in Blob Storage, and reads from the store only today's visitor-days", async () => {
    const call = blobCall(blobLocationFromConnectionString(t.env.AzureWebJobsStorage!)!);
    // This run's files alone, under its store's name: other runs share the storage account.
    const prefix = `${t.env.COSMOS_DATABASE}.${t.env.COSMOS_CONTAINER ?? 'activity'}/`;
    const listed = await call({ method: 'GET', path: DAY_FILES_CONTAINER, query: { restype: 'container', comp: 'list', prefix } });
    // The fold wrote each closed day's file; today is still open.
    expect(listed.text).toContain(`${D0}.parquet`);
    expect(listed.text).toContain(`${D1}.parquet`);
    expect(listed.text).not.toContain(`${D2}.parquet`);
    const queries = async (path: string) => {
      const before = (await get(t, '/api/admin/activity?days=1')).json.cost.queries;
      const answer = await get(t, path);
      return { answer, queries: (await get(t, '/api/admin/activity?days=1')).json.cost.queries - before };
    };
    const whole = await queries('/api/admin/activity?days=1');
    const two = await queries(`/api/admin/activity?days=1&filter=${encodeURIComponent('page:/')}&filter=!source:search`);
    // Beside what an unfiltered card asks, one query: today's visitor-days, a page; yesterday, the day before, is its file.
    expect(two.queries - whole.queries).toBe(1);
    expect(two.answer.json.rollups.complete).toBe(true);
    expect(two.answer.json.headline.people).toBeGreaterThan(0);
    // Beside the store's figures, the bytes of the day files' columns it read; an unfiltered card reads none.
    expect(two.answer.json.cost.day_file_bytes).toBeGreaterThan(0);
    expect(whole.answer.json.cost).not.toHaveProperty('day_file_bytes');
  });

  it('costs a point read an edge day (the period and the one before), one query for whole years and months and one a day of the last hours', async () => {
    const cost = async (path: string) => (await get(t, path)).json.cost;
    // The cost a card answers is the store's since the process started, the card's own read included.
    const card = (days: number) => ({ reads: 2 * days + 4, writes: 0, queries: HOUR_DAYS });
    // Whole years and months come from one query of their rollups: a period's edge days, and the period before's, are
    // at most three months' worth (the period's first month is shared by the two).

    const operations = async (path: string) => {
      const before = await cost('/api/admin/activity?days=1');
      const after = await cost(path);
      return { reads: after.reads - before.reads, writes: after.writes - before.writes, queries: after.queries - before.queries };
    };
    const long = await operations('/api/admin/activity?days=400');
    expect(long.writes).toBe(0);
    expect(long.queries).toBe(HOUR_DAYS + 1);
    expect(long.reads).toBeLessThanOrEqual(4 + 93);
    expect(long.reads + long.queries).toBeLessThanOrEqual(100);
    // Twenty years asked are clamped to the days kept: the same calls as those days.
    const decades = await operations(`/api/admin/activity?from=${Number(D1.slice(0, 4)) - 20}${D1.slice(4)}&to=${D1}`);
    expect(decades).toEqual(await operations(`/api/admin/activity?from=${D0}&to=${D1}`));
    const month = await operations('/api/admin/activity?days=30');
    expect(month.reads).toBeLessThanOrEqual(card(30).reads);
    expect(month.queries).toBeLessThanOrEqual(HOUR_DAYS + 1);
    const before = await cost('/api/admin/activity?days=1');
    await get(t, `/api/admin/activity/visitors?day=${D1}`);
    const after = await cost('/api/admin/activity?days=1');
    // The day's page (one query) and its tokens on the other stores (one query), and the read that shows the cost.
    expect(after.queries - before.queries).toBe(2 + card(1).queries);
    expect(after.reads - before.reads).toBe(card(1).reads);
    expect(after.failures).toBe(0);
  });
});

/** The people's visitor-days of the fixture that requested `/`: all its people's days hold it but one of ann's. */
const matchingDays = () =>
  new Set(fixture.filter((row) => kindOfRow(row) === 'people' && kept(row) === '/').map((row) => `${dayOf(row.at)}|${row.who}`)).size;

/** The UTC days the last 48 hours and tomorrow's first minutes touch: one query in each day's partition. */
const HOUR_DAYS = 4;

describe('the period report when the store cannot answer', () => {
  let t: TestHost;

  beforeAll(async () => {
    // A port with nothing listening on it: the Cosmos DB client gets refused, as it would with the store down.
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    t = await startTestHost({
      queues: false,
      env: { COSMOS_ENDPOINT: `http://127.0.0.1:${closed}` },
      overrides: { clock: fixedClock(NOW) },
    });
  });
  afterAll(() => t.stop());

  it.each([
    ['/api/admin/activity?days=30', ['by_day', 'hours', 'sources', 'path']],
    [`/api/admin/activity/visitors?day=${D1}`, ['visitors']],
  ])('answers %s with 200, available: false, a reason, and no figures', async (path, figures) => {
    const { status, json } = await get(t, path);
    expect(status).toBe(200);
    expect(json.availability).toEqual({ available: false, reason: expect.stringMatching(/could not be read/), retention: null });
    for (const figure of figures) expect(json[figure]).toBeNull();
  });
});
