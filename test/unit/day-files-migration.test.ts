import { describe, expect, it } from 'vitest';
import { memoryDayFiles } from '../../adapters/memory/day-files';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import type { RollupRules } from '../../shared/core/rollup/day-rollup';
import { tokenPages } from '../../shared/core/rollup/token-pages';
import type { Store } from '../../shared/core/store';
import { DAY_FILES_MIGRATION } from '../../shared/core/store/day-files';
import { firstKeptDay } from '../../shared/core/store/first-day';
import { dayFilesMigration } from '../../shared/fold/migrations/day-files';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { readPeriods, type PeriodRead } from '../../shared/read/activity/window';
import type { Filter } from '../../shared/core/rollup/filters';
import { periodReport } from '../../shared/read/activity/report';
import { memoryLogger } from '../../shared/core/ports/logger';
import { oneZone } from '../../shared/core/sites/zones';
import { zoneOf } from '../../shared/core/zone';
import { foldOnce, keepHits, queuedHit } from '../support/counting';

// Days kept before the day files (or in the layout before) get their file from the migration, a day a slice, newest
// first, from yesterday back to the first day kept; today is left to the store, and a slice run again writes the same.

const NOW = '2026-10-23T20:00:00.000Z';
const TODAY = NOW.slice(0, 10);
const DAYS = ['2026-10-18', '2026-10-20', '2026-10-21', '2026-10-22', TODAY];
const CLOSED = ['2026-10-22', '2026-10-21', '2026-10-20', '2026-10-19', '2026-10-18'];
const RULES: RollupRules = { steps: [], goals: [] };

async function kept(): Promise<Store> {
  const store = memoryStore();
  const clock = fixedClock(NOW);
  for (const [n, day] of DAYS.entries()) {
    const at = `${day}T10:00:00.000Z`;
    await keepHits(store, clock, [
      queuedHit(at, { person: `a${n}`, token: `a${n}`, path: '/pricing' }),
      queuedHit(at, { person: `b${n}`, token: `b${n}`, path: '/about' }),
    ]);
  }
  // Two files a run: the fold writes every closed day's in three.
  for (let run = 0; run < 3; run += 1) await foldOnce(store, clock);
  expect((await store.foldState.read())?.doc.files_due).toEqual([TODAY]);
  return store;
}

/** The migration on files of its own, so no file the fold wrote counts. */
function migrated(store: Store, files: ReturnType<typeof memoryDayFiles> | null) {
  return dayFilesMigration({ files, pages: store.visitorDayPages, firstDay: () => firstKeptDay(store), today: TODAY, rules: RULES });
}

/** Runs up to `slices` slices; true when the migration is done. */
async function run(store: Store, migration: ReturnType<typeof migrated>, slices: number): Promise<boolean> {
  let left = slices;
  return runMigrations(store.migrations, [migration], { now: new Date(NOW), limit: 500, more: async () => left-- > 0 });
}

const rowsOf = async (store: Store, day: string) => {
  const rows = [];
  for await (const page of tokenPages(store.visitorDayPages, day, RULES)) rows.push(...page);
  return rows;
};

describe('the day files migration', () => {
  it('writes every closed day kept, a day a slice, newest first, and never today', async () => {
    const store = await kept();
    const files = memoryDayFiles();
    const migration = migrated(store, files);
    expect(await run(store, migration, 2)).toBe(false);
    expect([...files.rows.keys()]).toEqual(CLOSED.slice(0, 2));
    expect(await run(store, migration, 100)).toBe(true);
    expect([...files.rows.keys()]).toEqual(CLOSED);
    for (const day of CLOSED) expect(files.rows.get(day), day).toEqual(await rowsOf(store, day));
    expect(files.rows.get('2026-10-21')).toHaveLength(2);
    expect(files.rows.get('2026-10-19')).toEqual([]);
    expect((await store.migrations.read(DAY_FILES_MIGRATION))?.doc).toMatchObject({ slices: CLOSED.length, done_at: NOW });
  });

  it('writes the same file when a slice runs again from the same position', async () => {
    const store = await kept();
    const files = memoryDayFiles();
    const migration = migrated(store, files);
    const position = await migration.slice({ position: null, number: 1, limit: 500 });
    const first = files.rows.get('2026-10-22');
    expect(await migration.slice({ position: null, number: 1, limit: 500 })).toBe(position);
    expect(files.rows.get('2026-10-22')).toEqual(first);
    expect(JSON.parse(position!)).toEqual({ day: '2026-10-21' });
  });

  it('is done at once without Blob Storage, or with nothing kept', async () => {
    const store = await kept();
    expect(await run(store, migrated(store, null), 1)).toBe(true);
    const empty = memoryStore();
    const files = memoryDayFiles();
    expect(await run(empty, migrated(empty, files), 1)).toBe(true);
    expect(files.rows.size).toBe(0);
  });
});

const FILTERS: Filter[] = [
  { dimension: 'page', value: '/about', negated: true },
  { dimension: 'page', value: '/nowhere', negated: true },
];
const PERIOD = ['2026-10-18', '2026-10-19', '2026-10-20', '2026-10-21', '2026-10-22', TODAY];

/** The period's several-filter read, and the days whose visitor-days it read from the store. */
async function scanned(store: Store): Promise<{ read: PeriodRead; paged: string[] }> {
  const paged = new Set<string>();
  const pages = store.visitorDayPages;
  const read = await readPeriods(
    {
      ...store,
      visitorDayPages: { byToken: (day, after, limit) => (paged.add(day), pages.byToken(day, after, limit)) },
    },
    [PERIOD],
    FILTERS,
    { month: '0000-00-00', year: '0000-00-00' },
    RULES,
  );
  if ('refused' in read) throw new Error(read.refused);
  return { read: read[0]!, paged: [...paged].sort() };
}

describe('a question of several filters while the day files migration runs', () => {
  it('leaves out the days it has still to write, says from which day it is whole, and pages through none of them', async () => {
    const store = await kept();
    const { read: whole } = await scanned(store);
    const files = store.dayFiles as ReturnType<typeof memoryDayFiles>;
    // As a deployment updated from before the files (or their layout) finds them: none.
    files.rows.clear();
    const migration = migrated(store, files);
    await run(store, migration, 1);
    const during = await scanned(store);
    expect(during.read.wholeFrom).toBe('2026-10-22');
    expect(during.paged).toEqual([TODAY]);
    expect(during.read.byDay.get('2026-10-22')).toEqual(whole.byDay.get('2026-10-22'));
    expect(during.read.byDay.get('2026-10-21')?.visitor_days.people).toBe(0);
    expect(whole.byDay.get('2026-10-21')?.visitor_days.people).toBe(1);
    const card = async () => {
      const answer = await periodReport(
        { period: { kind: 'days', days: 6 }, filters: FILTERS },
        {
          store,
          clock: fixedClock(NOW),
          logger: memoryLogger(),
          funnel: [],
          goals: [],
          zone: zoneOf('UTC'),
          days: async () => oneZone(zoneOf('UTC')),
        },
      );
      if (!answer.ok) throw new Error('the card was refused');
      return answer.value.rollups;
    };
    expect(await card()).toMatchObject({ complete: false, filters_from: '2026-10-22' });
    expect(await run(store, migration, 100)).toBe(true);
    expect(await card()).toMatchObject({ complete: true });
    const after = await scanned(store);
    expect(after.read.wholeFrom).toBeUndefined();
    expect(after.paged).toEqual([TODAY]);
    expect(after.read.byDay).toEqual(whole.byDay);
  });

  it('reads from the store the days without a file before the migration began', async () => {
    const store = await kept();
    const { read: whole } = await scanned(store);
    (store.dayFiles as ReturnType<typeof memoryDayFiles>).rows.clear();
    const before = await scanned(store);
    expect(before.read.wholeFrom).toBeUndefined();
    expect(before.paged).toEqual(PERIOD);
    expect(before.read.byDay).toEqual(whole.byDay);
  });
});
