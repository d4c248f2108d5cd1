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
  await foldOnce(store, clock);
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
