import { boundedMap } from '../../core/bounded-map';
import type { RollupRules } from '../../core/rollup/day-rollup';
import { tokenPages } from '../../core/rollup/token-pages';
import { cohortsTally, joinTallies, rowsTally } from '../../core/rollup/rows-tally';
import type { TokenRow } from '../../core/rollup/day-columns';
import type { Filter } from '../../core/rollup/filters';
import { addDays } from '../../core/days';
import { DAY_FILES_MIGRATION, dayFilesPlace, type DayFiles, type DaysTally } from '../../core/store/day-files';
import type { FoldStates } from '../../core/store/fold';
import type { Migrations } from '../../core/store/migrations';
import type { VisitorDayPages } from '../../core/store/rollups';
import { mergeSketches, type Sketch } from '../../core/sketch';

export interface ScanStore {
  /** Null without Blob Storage: every day is read from Cosmos DB then. */
  dayFiles: DayFiles | null;
  /** Its `files_due` are days changed since their file was written. */
  foldState: Pick<FoldStates, 'read'>;
  visitorDayPages: VisitorDayPages;
  /** The day files migration's progress: the closed days it has still to write are left out meanwhile. */
  migrations: Pick<Migrations, 'read'>;
}

/** With the days left out, the first day after them, from which the answer is whole; null when none was left out. */
export type ScanTally = DaysTally & { wholeFrom: string | null };

/** Days of Cosmos DB read at once, each a page at a time. */
const DAYS_AT_ONCE = 4;

/** A day without its file yet (today, or one changed since the timer wrote it) is read a page at a time, every page. */
async function eachRowPage(
  pages: VisitorDayPages,
  days: readonly string[],
  rules: RollupRules,
  add: (rows: TokenRow[]) => void,
): Promise<void> {
  await boundedMap(days, DAYS_AT_ONCE, async (day) => {
    for await (const rows of tokenPages(pages, day, rules)) add(rows);
  });
}

/** The last day the day files migration has still to write; null once done, or before it began (the store answers then). */
async function pendingUntil(migrations: ScanStore['migrations']): Promise<string | null> {
  const found = await migrations.read(DAY_FILES_MIGRATION);
  if (found === null || found.doc.done_at !== null || found.doc.position === null) return null;
  const place = dayFilesPlace.safeParse(JSON.parse(found.doc.position));
  return place.success ? place.data.day : null;
}

/**
 * Closed days with a current file, and the rest: a day changed since its file was written is read from Cosmos DB. A day
 * the migration has still to write is left out, never paged through: the answer says from which day it is whole.
 */
async function splitDays(store: ScanStore, days: readonly string[]) {
  const files = store.dayFiles;
  // Blob Storage that cannot answer leaves every day to Cosmos DB: slower, still whole.
  const [written, state, pending] = await Promise.all([
    files === null ? new Set<string>() : files.written(days).catch(() => new Set<string>()),
    store.foldState.read(),
    files === null ? null : pendingUntil(store.migrations),
  ]);
  const due = new Set(state?.doc.files_due ?? []);
  const current = (day: string) => written.has(day) && !due.has(day);
  const left = days.filter((day) => !current(day) && !due.has(day) && pending !== null && day <= pending);
  return {
    files,
    filed: days.filter(current),
    rest: days.filter((day) => !current(day) && !left.includes(day)),
    left,
    wholeFrom:
      left.length === 0
        ? null
        : addDays(
            left.reduce((last, day) => (day > last ? day : last)),
            1,
          ),
  };
}

/** Several filters, or one with `!`: closed days from their files, summed by the engine; the rest from Cosmos DB. */
export async function tallyDays(
  store: ScanStore,
  days: readonly string[],
  filters: readonly Filter[],
  rules: RollupRules,
): Promise<ScanTally> {
  const { files, filed, rest, wholeFrom } = await splitDays(store, days);
  const tally = rowsTally(filters);
  const [fromFiles] = await Promise.all([
    files === null || filed.length === 0 ? rowsTally(filters).done() : files.tally(filed, filters),
    eachRowPage(store.visitorDayPages, rest, rules, (rows) => tally.add(rows)),
  ]);
  return { ...joinTallies(fromFiles, tally.done()), wholeFrom };
}

/** The people of the matching visitor-days by first month and month seen, keyed `<first month>|<month>`. */
export async function cohortsOfDays(store: ScanStore, days: readonly string[], filters: readonly Filter[], rules: RollupRules) {
  const split = await splitDays(store, days);
  const { files, filed } = split;
  // Retention answers no day it is whole from, so it reads the days still to be written from the store meanwhile.
  const rest = [...split.rest, ...split.left];
  const tally = cohortsTally(filters);
  const [fromFiles] = await Promise.all([
    files === null || filed.length === 0 ? new Map<string, Sketch>() : files.cohorts(filed, filters),
    eachRowPage(store.visitorDayPages, rest, rules, (rows) => tally.add(rows)),
  ]);
  const cells = tally.done();
  for (const [key, sketch] of fromFiles) {
    const held = cells.get(key);
    cells.set(key, held === undefined ? sketch : mergeSketches(held, sketch));
  }
  return cells;
}
