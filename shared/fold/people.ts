import { addDays, earlierOf } from '../core/days';
import type { VisitorsSummaries, VisitorsSummary } from '../core/store/summary';
import { emptyVisitorsSummary } from '../core/store/summary';
import type { RecordCounts } from '../core/store/visitors';
import { countedAgain } from './by-day';
import { conditionalWriteOnce } from '../core/store/conditional-write';
import { inLanes } from '../core/lanes';
import { sliceOf } from './slice';

/** How many days' counts the people's fold asks for at once. */
const COUNTS_AT_ONCE = 8;

/**
 * How many days back a day's scanners are counted again from the records: a scanner's record lives 90 days from its
 * last write, which is never before the day it was first seen, so every record of a day this recent is still there.
 * An older day's figure stands as it was, so the scanners left out outlive their records.
 */
export const SCANNERS_COUNTED_AGAIN_DAYS = 88;

/**
 * How long before the last run a change of a record's counts still counts its days again: the keeper's clock and the
 * fold's are two machines' (synchronised to well under a second), and a write is made within seconds of its clock read;
 * ten minutes is far past both, and counting a day again is harmless.
 */
const COUNTS_CHANGED_MARGIN_MS = 600_000;

/** How far the people are folded: the records' mark, and when the run that last caught up began (null before). */
export interface RecordsMark {
  mark: number;
  at: string | null;
}

/** What one run of the people's fold did: the mark it reached, the records it read, and whether it caught up. */
export interface PeopleOutcome extends RecordsMark {
  records: number;
  caughtUp: boolean;
}

/**
 * Folds the visitor records written since the last run into the visitors summary, a slice of records at a time while
 * `more()` says the run has budget: every day such a record counts on (or was moved away from) is counted again from
 * the records, so the figure of a day is exact whatever order the sightings came in, and writing it twice changes
 * nothing. The first person's day only ever moves earlier. Memory holds one slice and the set of days, whatever the
 * backlog; the summary is written once, for every slice read, before the mark moves past them.
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
  let mark = since.mark;
  let records = 0;
  let caughtUp: boolean;
  do {
    const after = mark;
    const slice = await sliceOf(
      (limit) => store.recordCounts.changed(after, run.bound, limit),
      (upTo) => store.recordCounts.changed(after, upTo, Number.POSITIVE_INFINITY),
      run.limit,
      run.bound,
    );
    records += slice.items.length;
    // A record written since the last run whose counts did not change then (a known visitor's new day) changes no day.
    for (const change of slice.items) {
      if (cutoff !== null && change.counts_changed_at < cutoff) continue;
      for (const day of [change.first_seen, change.counted_on, ...change.moved_days]) if (day !== null) days.add(day);
      if (change.who === 'people' && change.counted_on !== null) firstPerson = earlierOf(firstPerson, change.counted_on);
    }
    mark = slice.upTo;
    caughtUp = slice.caughtUp;
  } while (!caughtUp && (await run.more()));
  if (days.size > 0) await countDaysAgain(store, [...days], firstPerson, run.today, imported);
  // The time of a catch-up is what later runs judge a record's change against; a run still behind keeps the older one.
  return { mark, at: caughtUp ? run.now.toISOString() : since.at, records, caughtUp };
}

/**
 * The visitors summary with each of these days counted again from the records. The scanners of an `imported` day are
 * counted again whatever its age: its records were written by the import, so every scanner's is still there (see
 * SCANNERS_COUNTED_AGAIN_DAYS); the fold learns such days from the import's landed notes (`people_due`).
 */
async function countDaysAgain(
  store: { recordCounts: RecordCounts; visitorsSummary: VisitorsSummaries },
  days: readonly string[],
  firstPerson: string | null,
  today: string,
  imported: ReadonlySet<string> = new Set(),
): Promise<void> {
  const counts: Array<{ day: string; people: number; scanners: number }> = [];
  await inLanes(days, COUNTS_AT_ONCE, async (day) => counts.push({ day, ...(await store.recordCounts.countsOn(day)) }));
  const read = await store.visitorsSummary.read();
  const held = read?.doc ?? emptyVisitorsSummary();
  const againFrom = addDays(today, -SCANNERS_COUNTED_AGAIN_DAYS);
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
