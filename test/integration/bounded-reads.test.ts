import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, daySpan } from '../../shared/core/days';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import type { StoreStats } from '../../shared/core/store';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

// Every read costs a bounded number of store calls whatever period it asks: it reads only the days that can hold data
// (the first counted or imported day to today), and a range past 400 days is clamped to them, which the answer says.

const TODAY = '2026-10-23';
const FIRST = addDays(TODAY, -3);
const SITE = 'blog.example';
const SITES = `${SITE}=https://blog.example`;
const logger = memoryLogger();
const clock = fixedClock(`${TODAY}T12:00:00.000Z`);
/**
 * Store calls any one read may make, whatever it asks and however long ago the first day: at most 31 edge days at each
 * end read one by one, whole months and years in one query, the last hours, the summaries.
 */
const MOST_CALLS = 100;

const callsOf = (before: StoreStats, after: StoreStats) => after.reads - before.reads + (after.queries - before.queries);

describe('every read is bounded, whatever period it asks', () => {
  let t: TestHost;
  let token: string;
  const operator = () => ({ 'x-operator-key': t.env.OPERATOR_KEY! });
  const shared = () => ({ 'x-share-token': token });

  /** The answer and the store calls it cost, through the real HTTP host. */
  async function read(path: string, headers: Record<string, string>) {
    const before = t.root.store.stats();
    const response = await fetch(`${t.host.url}${path}`, { headers });
    const text = await response.text();
    const calls = callsOf(before, t.root.store.stats());
    return { status: response.status, json: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text, calls };
  }

  beforeAll(async () => {
    t = await startTestHost({ env: { ALLOWED_ORIGINS: '', SITES }, overrides: { clock, logger } });
    await containerOf(t.env);
    const hit = (at: string, address: string) => ({ at, address, user_agent: AGENTS.firefoxLinux, path: '/', site: SITE, page_load: true });
    const posted = await post(
      `${t.host.url}/api/hits`,
      { hits: [hit(`${FIRST}T09:00:00Z`, '203.0.113.1'), hit(`${TODAY}T09:00:00Z`, '203.0.113.2')] },
      { 'x-ingest-key': t.env.INGEST_KEY! },
    );
    expect(posted.status).toBe(202);
    await t.host.drain();
    clock.advance(60_000);
    await t.fold();
    const made = await fetch(`${t.host.url}/api/admin/links`, {
      method: 'POST',
      headers: { ...operator(), 'content-type': 'application/json' },
      body: JSON.stringify({ site: SITE }),
    });
    expect(made.status).toBe(201);
    token = ((await made.json()) as { token: string }).token;
  }, 120_000);
  afterAll(() => t?.stop());

  it.each([
    ['0001-01-01', '9999-12-31'],
    ['1000-01-01', TODAY],
    [addDays(TODAY, 1), '9999-12-31'],
  ])(
    'clamps from=%s&to=%s, past 400 days, to the days that can hold data, says so, and costs a bounded number of store calls',
    async (from, to) => {
      for (const [path, headers] of [
        [`/api/admin/activity?from=${from}&to=${to}`, operator()],
        [`/api/admin/activity?from=${from}&to=${to}&filter=page:/`, operator()],
        [`/api/admin/activity?from=${from}&to=${to}&filter=page:/&filter=!country:DE`, operator()],
        [`/api/shared/activity?from=${from}&to=${to}`, shared()],
      ] as const) {
        const { status, json, calls } = await read(path, headers);
        expect(status, path).toBe(200);
        expect(calls, path).toBeLessThanOrEqual(MOST_CALLS);
        expect(json.clamped, path).toEqual({ asked_from: from, asked_to: to });
        expect(json.from >= FIRST && json.to <= TODAY && json.from <= json.to, path).toBe(true);
      }
    },
  );

  it.each([
    ['1000-01-01', '1000-12-31', 0],
    [addDays(TODAY, -10), addDays(TODAY, 389), 2],
  ])('answers from=%s&to=%s, within 400 days, as asked, reading only the days that can hold data', async (from, to, people) => {
    for (const path of [
      `/api/admin/activity?from=${from}&to=${to}`,
      `/api/admin/activity?from=${from}&to=${to}&filter=page:/&filter=!country:DE`,
    ]) {
      const { status, json, calls } = await read(path, operator());
      expect(status, path).toBe(200);
      expect(calls, path).toBeLessThanOrEqual(MOST_CALLS);
      expect(json, path).toMatchObject({ from, to, days: daySpan(from, to) });
      expect(json.clamped, path).toBeUndefined();
      expect(
        json.by_day.reduce((sum: number, day: { people: number }) => sum + day.people, 0),
        path,
      ).toBe(people);
    }
  });

  it('reads every day since the first counted one for days=all, and a range within those days is not clamped', async () => {
    const all = await read('/api/admin/activity?days=all', operator());
    expect(all).toMatchObject({ status: 200, json: { from: FIRST, to: TODAY, days: 4 } });
    expect(all.json.by_day.reduce((sum: number, day: { people: number }) => sum + day.people, 0)).toBe(2);
    expect(all.calls).toBeLessThanOrEqual(MOST_CALLS);
    const within = await read(`/api/admin/activity?from=${FIRST}&to=${TODAY}`, operator());
    expect(within.json.clamped).toBeUndefined();
    expect(within.json.by_day).toEqual(all.json.by_day);
  });

  it('answers a clamped range with the figures of the days it was clamped to', async () => {
    const widest = await read('/api/admin/activity?from=0001-01-01&to=9999-12-31', operator());
    const kept = await read(`/api/admin/activity?from=${FIRST}&to=${TODAY}`, operator());
    expect(widest.json.by_day).toEqual(kept.json.by_day);
    expect(widest.json.headline).toEqual(kept.json.headline);
  });

  it('reads only the days that can hold data of the widest export, retention, visitors page and last minutes', async () => {
    for (const path of [
      '/api/admin/export?from=9999-01-01&to=9999-12-31',
      '/api/admin/export?from=1000-01-01&to=1001-01-01&format=csv',
      `/api/admin/export?from=${addDays(TODAY, -399)}&to=${TODAY}&filter=page:/&filter=!country:DE`,
      '/api/admin/retention?months=36',
      '/api/admin/retention?months=36&filter=page:/',
      '/api/admin/retention?months=12&filter=page:/&filter=!country:DE',
      '/api/admin/activity?days=400&filter=page:/&filter=!country:DE',
      `/api/admin/activity/visitors?day=${TODAY}`,
      '/api/admin/activity/visitors?day=0001-01-01',
      '/api/admin/now',
    ]) {
      const { status, calls } = await read(path, operator());
      expect(status, path).toBe(200);
      expect(calls, path).toBeLessThanOrEqual(MOST_CALLS);
    }
  });

  it('keeps every asked day as a row of the export, zero where nothing can be kept', async () => {
    const { json } = await read(`/api/admin/export?from=${addDays(TODAY, -399)}&to=${TODAY}`, operator());
    expect(json.rows).toHaveLength(400);
    expect(json.rows.reduce((sum: number, row: { visitor_days: { people: number } }) => sum + row.visitor_days.people, 0)).toBe(2);
  });
});

describe('the days that can hold data begin at the first imported day when it is earlier', () => {
  const IMPORTED = '2026-03-02';
  const importClock = fixedClock(`${TODAY}T12:00:00.000Z`);
  let t: TestHost;

  beforeAll(async () => {
    t = await startTestHost({ overrides: { clock: importClock, logger: memoryLogger() } });
    await containerOf(t.env);
    const ingest = { 'x-ingest-key': t.env.INGEST_KEY! };
    const hit = { at: `${TODAY}T09:00:00Z`, address: '203.0.113.1', user_agent: AGENTS.firefoxLinux, path: '/', page_load: true };
    expect((await post(`${t.host.url}/api/hits`, hit, ingest)).status).toBe(202);
    const line = {
      at: `${IMPORTED}T09:00:00Z`,
      address: '192.0.2.44',
      user_agent: AGENTS.firefoxLinux,
      method: 'GET',
      path: '/',
      status: 200,
    };
    expect((await post(`${t.host.url}/api/import`, { hits: [line] }, ingest)).status).toBe(202);
    await t.host.drain();
    importClock.advance(60_000);
    for (let run = 0; run < 3; run += 1) await t.fold();
  }, 120_000);
  afterAll(() => t?.stop());

  it('clamps the widest range to the first imported day, within the same bound of store calls', async () => {
    const before = t.root.store.stats();
    const response = await fetch(`${t.host.url}/api/admin/activity?from=0001-01-01&to=9999-12-31`, {
      headers: { 'x-operator-key': t.env.OPERATOR_KEY! },
    });
    const calls = callsOf(before, t.root.store.stats());
    const json = (await response.json()) as { from: string; to: string; clamped: unknown; by_day: Array<{ day: string; people: number }> };
    expect(json).toMatchObject({ from: IMPORTED, to: TODAY, clamped: { asked_from: '0001-01-01', asked_to: '9999-12-31' } });
    expect(json.by_day.filter((day) => day.people > 0).map((day) => day.day)).toEqual([IMPORTED, TODAY]);
    expect(calls).toBeLessThanOrEqual(MOST_CALLS);
  });
});
