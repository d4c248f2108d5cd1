import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, daysEnding } from '../../shared/core/days';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, browserHeaders } from '../support/http';

// The end-to-end count: a fixture of 35 days posted with `at` through /api/hits, kept by keep-hits, counted by the
// recount, and read back through both endpoints, against figures worked out from the fixture alone.

const TODAY = '2026-10-23';
const NOW = `${TODAY}T20:00:00.000Z`;
const clock = fixedClock(NOW);
const SCANNER_PATHS = new Set(['/wp-login.php', '/.env']);

interface Visitor {
  name: string;
  address: string;
  agent: string;
  /** Every request it makes looks like a bot by its agent. */
  botAgent?: boolean;
  /** The site reading itself: loopback, the own network (SELF_NETWORKS 10.20.0.0/16), or the self tag. */
  self?: boolean;
}

interface Row {
  who: Visitor;
  at: string;
  path: string;
  store?: string;
}

const people: Visitor[] = Array.from({ length: 10 }, (_, i) => ({
  name: `person${i}`,
  address: i % 4 === 3 ? `2001:db8:${i}::7` : `${i % 2 === 0 ? '203.0.113' : '198.51.100'}.${10 + i}`,
  agent: [AGENTS.chromeWindows, AGENTS.firefoxLinux, AGENTS.safariIphone][i % 3]!,
}));
const office = [
  { name: 'officeChrome', address: '203.0.113.200', agent: AGENTS.chromeWindows },
  { name: 'officeFirefox', address: '203.0.113.200', agent: AGENTS.firefoxLinux },
];
const probedFirst: Visitor = { name: 'probedFirst', address: '198.51.100.77', agent: AGENTS.safariIphone };
const googlebot: Visitor = { name: 'googlebot', address: '66.249.66.1', agent: AGENTS.googlebot, botAgent: true };
const curl: Visitor = { name: 'curl', address: '192.0.2.50', agent: AGENTS.curl, botAgent: true };
const selves: Visitor[] = [
  { name: 'loopback', address: '127.0.0.1', agent: 'node-fetch/1.0', self: true },
  { name: 'ownNetwork', address: '10.20.0.5', agent: AGENTS.firefoxLinux, self: true },
  { name: 'tagged', address: '192.0.2.200', agent: 'headcount-self/1.0 (health)', self: true },
];

const at = (back: number, hour: number, minute = 0) =>
  `${addDays(TODAY, -back)}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;

/** 35 days: people returning on days of their own (some through the shop too), an office of two, crawlers, scanners, the site itself. */
function fixture(): Row[] {
  const rows: Row[] = [];
  for (let back = 34; back >= 0; back -= 1) {
    people.forEach((who, i) => {
      if ((back * 7 + i * 3) % 5 !== 0) return;
      rows.push({ who, at: at(back, 8 + i, 5), path: '/' }, { who, at: at(back, 8 + i, 9), path: `/trees/${i}` });
      if (i % 3 === 0) rows.push({ who, at: at(back, 8 + i, 20), path: '/cart', store: 'shop' });
    });
    if (back % 6 === 0) rows.push({ who: googlebot, at: at(back, 3), path: '/' }, { who: googlebot, at: at(back, 3, 1), path: '/about' });
    if (back % 4 === 1) rows.push({ who: curl, at: at(back, 2), path: '/wp-login.php' }, { who: curl, at: at(back, 2, 1), path: '/.env' });
    for (const who of selves) rows.push({ who, at: at(back, 0, 30), path: '/health' });
  }
  rows.push({ who: office[0]!, at: at(2, 12), path: '/' }, { who: office[1]!, at: at(2, 12, 30), path: '/about' });
  rows.push({ who: probedFirst, at: at(20, 4), path: '/wp-login.php' }, { who: probedFirst, at: at(3, 9), path: '/' });
  return rows;
}

const isBot = (row: Row) => row.who.botAgent === true || SCANNER_PATHS.has(row.path);
const dayOf = (row: Row) => row.at.slice(0, 10);

/** The figures both endpoints should answer, worked out from the rows with no code of the app's. */
function expected(rows: Row[]) {
  const counted = new Map<string, string | null>();
  for (const row of [...rows].sort((a, b) => (a.at < b.at ? -1 : 1))) {
    if (row.who.self) continue;
    const known = counted.get(row.who.name) ?? null;
    counted.set(row.who.name, known ?? (isBot(row) ? null : dayOf(row)));
  }
  const personDays = [...counted.values()].filter((day): day is string => day !== null);
  const days = daysEnding(TODAY, 30);
  const visitsByDay = new Map<string, Set<string>>();
  const tokenDays = new Map<string, boolean>();
  for (const row of rows) {
    if (row.who.self) continue;
    // A visit is one person's day: two browsers on one address are two.
    const key = `${dayOf(row)}|${row.who.address} ${row.who.agent}`;
    tokenDays.set(key, (tokenDays.get(key) ?? false) || !isBot(row));
  }
  for (const [key, person] of tokenDays) {
    if (!person) continue;
    const [day, address] = key.split('|') as [string, string];
    visitsByDay.set(day, (visitsByDay.get(day) ?? new Set()).add(address));
  }
  const visitDays = [...visitsByDay.keys()].sort();
  return {
    people_all_time: personDays.length,
    people_new_today: personDays.filter((day) => day === TODAY).length,
    people_new_month: personDays.filter((day) => day.startsWith(TODAY.slice(0, 8))).length,
    scanners_left_out: counted.size - personDays.length,
    counted_from: [...personDays].sort()[0],
    people_new_by_day: days.map((day) => ({ day, people: personDays.filter((d) => d === day).length })),
    visits: {
      all_time: visitDays.reduce((sum, day) => sum + visitsByDay.get(day)!.size, 0),
      from: visitDays[0],
      by_day: days.map((day) => ({ day, visits: visitsByDay.get(day)?.size ?? 0 })),
    },
  };
}

/** Each day's rows on that day, as a site sends them: a hit is taken within HIT_MAX_AGE_DAYS (at most 7) of its `at`. */
async function postRows(t: TestHost, rows: Row[]) {
  for (const day of [...new Set(rows.map(dayOf))].sort()) {
    clock.set(`${day}T23:59:00.000Z`);
    await postDay(
      t,
      rows.filter((row) => dayOf(row) === day),
    );
  }
  clock.set(NOW);
}

async function postDay(t: TestHost, rows: Row[]) {
  for (let start = 0; start < rows.length; start += 100) {
    const hits = rows
      .slice(start, start + 100)
      .map((row) => ({ at: row.at, address: row.who.address, user_agent: row.who.agent, path: row.path, store: row.store }));
    const response = await fetch(`${t.host.url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
      body: JSON.stringify({ hits }),
    });
    expect(response.status).toBe(202);
  }
}

const get = async (t: TestHost, path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${t.host.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
};
const recount = (t: TestHost) => t.fold();
const admin = (t: TestHost) => get(t, '/api/admin/visitors/people', { authorization: `Bearer ${t.env.OPERATOR_KEY}` });

describe('the count end to end, through the local host on Azurite and the local Cosmos server', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost({ env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { clock } });
    await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('answers exactly the figures the fixture says, the same on the pulse and the Admin count', async () => {
    const rows = fixture();
    const want = expected(rows);
    expect(want.people_all_time).toBe(13);
    expect(want.scanners_left_out).toBe(2);
    await postRows(t, rows);
    await t.host.drain();
    await recount(t);

    const count = await admin(t);
    expect(count.status).toBe(200);
    expect(count.json).toEqual({ ...want, source: t.root.store.source, behind_since: null, time_zone: 'UTC' });
    const pulse = await get(t, '/api/pulse', { origin: 'https://site.example' });
    expect(pulse.status).toBe(200);
    expect(pulse.headers.get('cache-control')).toBe('public, max-age=60');
    expect(pulse.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(pulse.json).toEqual({
      site: 'site.example',
      people_all_time: count.json.people_all_time,
      people_new_by_day: count.json.people_new_by_day,
      counted_from: count.json.counted_from,
      visits_all_time: count.json.visits.all_time,
      visits_from: count.json.visits.from,
      visits_by_day: count.json.visits.by_day,
      source: count.json.source,
      behind_since: null,
      time_zone: 'UTC',
    });
  });

  it('answers 401 in the error envelope with no key or a wrong key', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-operator-key' }, { 'x-operator-key': 'not-the-operator-key' }] as Record<
      string,
      string
    >[]) {
      const refused = await get(t, '/api/admin/visitors/people', headers);
      expect(refused.status).toBe(401);
      expect(refused.json).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
  });

  it("marks the operator's browser with the cookie, and that browser's beacons are self: the people count does not move", async () => {
    const first = await admin(t);
    const setCookie = first.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^headcount_operator=[0-9a-f]{64}; Max-Age=\d+; Path=\/; Secure; HttpOnly; SameSite=Lax$/);
    const cookie = setCookie.split(';')[0]!;
    const beacon = (address: string, headers: Record<string, string> = {}) =>
      fetch(`${t.host.url}/api/beacon`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...browserHeaders(AGENTS.chromeWindows),
          origin: 'https://site.example',
          'user-agent': AGENTS.chromeWindows,
          'x-forwarded-for': address,
          ...headers,
        },
        body: JSON.stringify({ path: '/' }),
      });

    expect((await beacon('203.0.113.150', { cookie })).status).toBe(202);
    await t.host.drain();
    await recount(t);
    const marked = await admin(t);
    expect(marked.json.people_all_time).toBe(first.json.people_all_time);
    expect(marked.json.visits.all_time).toBe(first.json.visits.all_time);

    // The same beacon without the cookie, from another address, is a person: the count can move.
    expect((await beacon('203.0.113.151')).status).toBe(202);
    await t.host.drain();
    await recount(t);
    const unmarked = await admin(t);
    expect(unmarked.json.people_all_time).toBe(first.json.people_all_time + 1);
    expect(unmarked.json.visits.all_time).toBe(first.json.visits.all_time + 1);

    // The Admin tab's own reads, were a site to forward them, are not counted.
    const forwarded = await fetch(`${t.host.url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
      body: JSON.stringify({ address: '203.0.113.152', user_agent: AGENTS.firefoxLinux, path: '/api/admin/visitors/people' }),
    });
    expect(await forwarded.json()).toEqual({ accepted: 0, ignored: 1 });
  });
});

describe('the count with the store down', () => {
  it('answers 200 with null figures and a source that says why, on the pulse and the Admin count', async () => {
    const t = await startTestHost({ env: { COSMOS_ENDPOINT: 'http://127.0.0.1:9' } });
    try {
      await recount(t);
      const pulse = await get(t, '/api/pulse');
      expect(pulse.status).toBe(200);
      expect(pulse.json).toEqual({
        site: 'site.example',
        people_all_time: null,
        people_new_by_day: null,
        counted_from: null,
        visits_all_time: null,
        visits_from: null,
        visits_by_day: null,
        source: expect.stringMatching(/^unread: the store did not answer \(.+\)$/),
        behind_since: null,
        // The zone set is named even when the store cannot answer.
        time_zone: 'UTC',
      });
      const count = await admin(t);
      expect(count.status).toBe(200);
      expect(count.json).toMatchObject({
        people_all_time: null,
        people_new_today: null,
        people_new_month: null,
        scanners_left_out: null,
        counted_from: null,
        people_new_by_day: null,
        visits: null,
      });
      expect(count.json.source).toBe(pulse.json.source);
    } finally {
      await t.stop();
    }
  });
});
