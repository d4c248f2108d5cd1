import { boundedMap } from '../../core/bounded-map';
import { emptyCounts, capped, type RollupRules } from '../../core/rollup/day-rollup';
import { tokenPages } from '../../core/rollup/token-pages';
import { joinTallies, rowsTally } from '../../core/rollup/rows-tally';
import type { Filter } from '../../core/rollup/filters';
import { distinctOf, PERIOD_TOP } from '../../core/rollup/periods';
import type { DayFiles, DaysTally } from '../../core/store/day-files';
import type { DayFigures } from '../../core/store/periods';
import type { FoldStates } from '../../core/store/fold';
import type { VisitorDayPages } from '../../core/store/rollups';
import type { Sketch } from '../../core/sketch';
import type { Summable } from './window';

export interface ScanStore {
  /** Null without Blob Storage: every day is read from Cosmos DB then. */
  dayFiles: DayFiles | null;
  /** Its `files_due` are days changed since their file was written. */
  foldState: Pick<FoldStates, 'read'>;
  visitorDayPages: VisitorDayPages;
}

/** Days of Cosmos DB read at once, each a page at a time. */
const DAYS_AT_ONCE = 4;

/** A day without its file yet (today, or one closed since the timer's last run) is read a page at a time, every page. */
async function tallyInCosmos(pages: VisitorDayPages, days: readonly string[], filters: readonly Filter[], rules: RollupRules): Promise<DaysTally> {
  const tally = rowsTally(filters);
  await boundedMap(days, DAYS_AT_ONCE, async (day) => {
    for await (const rows of tokenPages(pages, day, rules)) tally.add(rows);
  });
  return tally.done();
}

/** Several filters, or one with `!`: closed days from their files, summed by the engine; the rest from Cosmos DB. */
export async function tallyDays(store: ScanStore, days: readonly string[], filters: readonly Filter[], rules: RollupRules): Promise<DaysTally> {
  const files = store.dayFiles;
  // Blob Storage that cannot answer leaves every day to Cosmos DB: slower, still whole.
  const [written, state] = await Promise.all([
    files === null ? new Map<string, number>() : files.written(days).catch(() => new Map<string, number>()),
    store.foldState.read(),
  ]);
  const due = new Set(state?.doc.files_due ?? []);
  const current = (day: string) => written.has(day) && !due.has(day);
  const [fromFiles, fromCosmos] = await Promise.all([
    files === null || !days.some(current) ? rowsTally(filters).done() : files.tally(days.filter(current), filters),
    tallyInCosmos(
      store.visitorDayPages,
      days.filter((day) => !current(day)),
      filters,
      rules,
    ),
  ]);
  return joinTallies(fromFiles, fromCosmos);
}

const none = (): Sketch => ({ sparse: {} });

/** Each day's counts as a day's part, capped as a recount of the day would be, with its sketches. */
export function partsOf(tally: DaysTally, days: readonly string[]) {
  const byDay = new Map<string, DayFigures>();
  const each = new Map<string, Summable>();
  for (const day of days) {
    const { partial, ...counts } = tally.counts.get(day) ?? { ...emptyCounts(), partial: false };
    capped(counts, PERIOD_TOP);
    const sketches = tally.sketches.get(day) ?? { people: none(), fresh: none(), back: none() };
    const part = { ...counts, people_sketch: sketches.people, new_sketch: sketches.fresh, returning_sketch: sketches.back, sketch_partial: partial };
    each.set(day, part);
    byDay.set(day, { ...part, ...distinctOf(part) });
  }
  return { each, byDay, parts: [...each.values()] };
}
