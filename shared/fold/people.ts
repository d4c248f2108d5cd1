import { addDays, earlierOf } from '../core/days';
import type { VisitorsSummaries, VisitorsSummary } from '../core/store/summary';
import { emptyVisitorsSummary } from '../core/store/summary';
import type { RecordCounts } from '../core/store/visitors';
import { countedAgain } from './by-day';
import { conditionalWriteOnce } from '../core/store/conditional-write';
import { boundedMap } from '../core/bounded-map';
import { sliceOf } from './slice';

const COUNTS_AT_ONCE = 8;

/**
 * A scanner's record lives 90 days from its last write, so every record of a day this recent is still there.
 * Older days stand as they were, so the scanners left out outlive their records.
 */
export const BOTS_COUNTED_AGAIN_DAYS = 88;

/** The keeper's and the fold's clocks differ by well under a second, and counting a day again is harmless. */
const COUNTS_CHANGED_MARGIN_MS = 600_000;

/** `at` is null before the first catch-up. */
export interface RecordsMark {
  watermark: number;
  at: string | null;
}

export interface PeopleOutcome extends RecordsMark {
  records: number;
  caughtUp: boolean;
}

/**
 * Every day a changed record counts on, or moved away from, is counted again from the records, so a day is exact in any order.
 * The summary is written before the watermark moves past the slice.
 */
export async function foldPeople(
  store: { recordCounts: RecordCounts; visitorsSummary: VisitorsSummaries },
  since: RecordsMark,
  run: { bound: number; today: string; now: Date; limit: number; more: () => Promise<boolean>; imported?: readonly string[] },
): Promise<PeopleOutcome> {
  const cutoff = since.at === null ? null : new Date(Date.parse(since.at) - COUNTS_CHANGED_MARGIN_MS).toISOString();
  // Imported days are counted again with their scanners, whatever their age (see countDaysAgain).
  const imported = new Set(run.imported ?? []);
  const days = new Set<string>(imported);
  let firstPerson: string | null = null;
  let watermark = since.watermark;
  let records = 0;
  let caughtUp: boolean;
  do {
    const after = watermark;
    const slice = await sliceOf(
      (limit) => store.recordCounts.changed(after, run.bound, limit),
      (upTo) => store.recordCounts.changed(after, upTo, Number.POSITIVE_INFINITY),
      run.limit,
      run.bound,
    );
    records += slice.items.length;
    // A known visitor's new day changes no day's counts.
    for (const change of slice.items) {
      if (cutoff !== null && change.counts_changed_at < cutoff) continue;
      for (const day of [change.first_seen, change.counted_on, ...change.moved_days]) if (day !== null) days.add(day);
      if (change.who === 'people' && change.counted_on !== null) firstPerson = earlierOf(firstPerson, change.counted_on);
    }
    watermark = slice.upTo;
    caughtUp = slice.caughtUp;
  } while (!caughtUp && (await run.more()));
  if (days.size > 0) await countDaysAgain(store, [...days], firstPerson, run.today, imported);
  // Later runs judge a record's change against the time of a catch-up; a run still behind keeps the older one.
  return { watermark, at: caughtUp ? run.now.toISOString() : since.at, records, caughtUp };
}

/** An imported day's scanners are counted again at any age: the import wrote their records, so all are still there. */
async function countDaysAgain(
  store: { recordCounts: RecordCounts; visitorsSummary: VisitorsSummaries },
  days: readonly string[],
  firstPerson: string | null,
  today: string,
  imported: ReadonlySet<string> = new Set(),
): Promise<void> {
  const counts: Array<{ day: string; people: number; scanners: number }> = [];
  await boundedMap(days, COUNTS_AT_ONCE, async (day) => counts.push({ day, ...(await store.recordCounts.countsOn(day)) }));
  const read = await store.visitorsSummary.read();
  const held = read?.doc ?? emptyVisitorsSummary();
  const againFrom = addDays(today, -BOTS_COUNTED_AGAIN_DAYS);
  const people = countedAgain(
    held.people_new_by_day,
    counts.map((count) => [count.day, count.people] as const),
  );
  const scanners = countedAgain(
    held.scanners_by_day,
    counts.filter((count) => count.day >= againFrom || imported.has(count.day)).map((count) => [count.day, count.scanners] as const),
  );
  const next: VisitorsSummary = {
    ...held,
    people_all_time: people.total,
    scanners_left_out: scanners.total,
    counted_from: earlierOf(held.counted_from, firstPerson),
    people_new_by_day: people.byDay,
    scanners_by_day: scanners.byDay,
  };
  await conditionalWriteOnce(
    store.visitorsSummary,
    { before: read?.doc ?? null, etag: read?.etag ?? null, after: next },
    'visitors summary',
  );
}
