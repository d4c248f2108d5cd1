import { addDays, earlierOf } from '../counting/days';
import type { VisitorsSummaries, VisitorsSummary } from '../store/summary';
import { emptyVisitorsSummary } from '../store/summary';
import type { RecordCounts } from '../store/visitors';
import { recounted } from './by-day';
import { rewrite } from './write';

/**
 * How many days back a day's scanners are counted again from the records: a scanner's record lives 90 days from its
 * last write, which is never before the day it was first seen, so every record of a day this recent is still there.
 * An older day's figure stands as it was, so the scanners left out outlive their records.
 */
export const SCANNER_RECOUNT_DAYS = 88;

/**
 * How long before the last run a change of a record's counts still counts its days again: the keeper's clock and the
 * fold's are two machines' (synchronised to well under a second), and a write is made within seconds of its clock read;
 * ten minutes is far past both, and counting a day again is harmless.
 */
const COUNTS_CHANGED_MARGIN_MS = 600_000;

/**
 * Folds the visitor records written since the last run into the visitors summary: every day such a record counts on
 * (or was moved away from) is counted again from the records, so the figure of a day is exact whatever order the
 * sightings came in, and writing it twice changes nothing. The first person's day only ever moves earlier.
 */
export async function foldPeople(
  store: { recordCounts: RecordCounts; summary: VisitorsSummaries },
  since: { mark: number; at: string | null },
  bound: number,
  today: string,
): Promise<number> {
  const written = await store.recordCounts.changed(since.mark, bound);
  // A record written since the last run whose counts did not change then (a known visitor's new day) changes no day.
  const changes =
    since.at === null
      ? written
      : written.filter((change) => change.counts_changed_at >= new Date(Date.parse(since.at!) - COUNTS_CHANGED_MARGIN_MS).toISOString());
  if (changes.length === 0) return written.length;
  const days = [...new Set(changes.flatMap((change) => [change.first_seen, change.counted_on, ...change.moved_days]))].filter(
    (day): day is string => day !== null,
  );
  const counts = await Promise.all(days.map(async (day) => ({ day, ...(await store.recordCounts.countsOn(day)) })));
  const read = await store.summary.read();
  const held = read?.doc ?? emptyVisitorsSummary();
  const recountFrom = addDays(today, -SCANNER_RECOUNT_DAYS);
  const people = recounted(
    held.people_new_by_day,
    counts.map((count) => [count.day, count.people] as const),
  );
  const scanners = recounted(
    held.scanners_by_day,
    counts.filter((count) => count.day >= recountFrom).map((count) => [count.day, count.scanners] as const),
  );
  const firstPerson =
    changes.flatMap((change) => (change.who === 'people' && change.counted_on !== null ? [change.counted_on] : [])).sort()[0] ?? null;
  const next: VisitorsSummary = {
    ...held,
    people_all_time: people.total,
    scanners_left_out: scanners.total,
    counted_from: earlierOf(held.counted_from, firstPerson),
    people_new_by_day: people.byDay,
    scanners_by_day: scanners.byDay,
  };
  await rewrite(store.summary, { before: read?.doc ?? null, etag: read?.etag ?? null, after: next }, 'visitors summary');
  return written.length;
}
