import { addDays } from '../counting/days';
import type { VisitorsSummaries, VisitorsSummary } from '../store/summary';
import { emptyVisitorsSummary } from '../store/summary';
import type { RecordCounts } from '../store/visitors';
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

const setOrDrop = (byDay: Record<string, number>, day: string, count: number) => {
  if (count > 0) byDay[day] = count;
  else delete byDay[day];
};

const sorted = (byDay: Record<string, number>) => Object.fromEntries(Object.entries(byDay).sort(([a], [b]) => (a < b ? -1 : 1)));
const sum = (byDay: Record<string, number>) => Object.values(byDay).reduce((total, count) => total + count, 0);
const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);

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
  const people = { ...held.people_new_by_day };
  const scanners = { ...held.scanners_by_day };
  const recountFrom = addDays(today, -SCANNER_RECOUNT_DAYS);
  for (const count of counts) {
    setOrDrop(people, count.day, count.people);
    if (count.day >= recountFrom) setOrDrop(scanners, count.day, count.scanners);
  }
  const firstPerson =
    changes.flatMap((change) => (change.who === 'people' && change.counted_on !== null ? [change.counted_on] : [])).sort()[0] ?? null;
  const next: VisitorsSummary = {
    ...held,
    people_all_time: sum(people),
    scanners_left_out: sum(scanners),
    counted_from: earlier(held.counted_from, firstPerson),
    people_new_by_day: sorted(people),
    scanners_by_day: sorted(scanners),
  };
  await rewrite(store.summary, { before: read?.doc ?? null, etag: read?.etag ?? null, after: next }, 'visitors summary');
  return written.length;
}
