import { boundedMap } from '../../core/bounded-map';
import type { RollupRules } from '../../core/rollup/day-rollup';
import { tokenPages } from '../../core/rollup/token-pages';
import { cohortsTally, joinTallies, rowsTally } from '../../core/rollup/rows-tally';
import type { TokenRow } from '../../core/rollup/day-columns';
import type { Filter } from '../../core/rollup/filters';
import type { DayFiles, DaysTally } from '../../core/store/day-files';
import type { FoldStates } from '../../core/store/fold';
import type { VisitorDayPages } from '../../core/store/rollups';
import { mergeSketches, type Sketch } from '../../core/sketch';

export interface ScanStore {
  /** Null without Blob Storage: every day is read from Cosmos DB then. */
  dayFiles: DayFiles | null;
  /** Its `files_due` are days changed since their file was written. */
  foldState: Pick<FoldStates, 'read'>;
  visitorDayPages: VisitorDayPages;
}

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

/** Closed days with a current file, and the rest: a day changed since its file was written is read from Cosmos DB. */
async function splitDays(store: ScanStore, days: readonly string[]): Promise<{ files: DayFiles | null; filed: string[]; rest: string[] }> {
  const files = store.dayFiles;
  // Blob Storage that cannot answer leaves every day to Cosmos DB: slower, still whole.
  const [written, state] = await Promise.all([
    files === null ? new Set<string>() : files.written(days).catch(() => new Set<string>()),
    store.foldState.read(),
  ]);
  const due = new Set(state?.doc.files_due ?? []);
  const current = (day: string) => written.has(day) && !due.has(day);
  return { files, filed: days.filter(current), rest: days.filter((day) => !current(day)) };
}

/** Several filters, or one with `!`: closed days from their files, summed by the engine; the rest from Cosmos DB. */
export async function tallyDays(
  store: ScanStore,
  days: readonly string[],
  filters: readonly Filter[],
  rules: RollupRules,
): Promise<DaysTally> {
  const { files, filed, rest } = await splitDays(store, days);
  const tally = rowsTally(filters);
  const [fromFiles] = await Promise.all([
    files === null || filed.length === 0 ? rowsTally(filters).done() : files.tally(filed, filters),
    eachRowPage(store.visitorDayPages, rest, rules, (rows) => tally.add(rows)),
  ]);
  return joinTallies(fromFiles, tally.done());
}

/** The people of the matching visitor-days by first month and month seen, keyed `<first month>|<month>`. */
export async function cohortsOfDays(store: ScanStore, days: readonly string[], filters: readonly Filter[], rules: RollupRules) {
  const { files, filed, rest } = await splitDays(store, days);
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
