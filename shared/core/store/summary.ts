import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

/** The visitors summary's id in the `visitors` partition. */
export const VISITORS_SUMMARY_ID = 'visitors-summary';

/**
 * The count (pk `visitors`, id `visitors-summary`), folded by the fold from the visitor records, its only
 * writer: a point read answers it whatever the number of visitors. Each day's figures are counted again from the
 * records whenever a record of that day changes, so a day is exact, not a running sum. Scanners are counted by the day
 * they were first seen; a day older than the scanner records' lifetime is no longer counted again, so
 * scanners_left_out outlives the records (a hash seen again after its record expired is counted again).
 */
export interface VisitorsSummary {
  id: typeof VISITORS_SUMMARY_ID;
  pk: typeof VISITORS_PK;
  kind: 'visitors-summary';
  /** The sum of people_new_by_day. */
  people_all_time: number;
  /** The sum of scanners_by_day. */
  scanners_left_out: number;
  /** The first day a person was counted on, never a scanner's; null until the first person. */
  counted_from: string | null;
  /** New people by the UTC day they were counted on (`yyyy-MM-dd` → people); days with none are absent. */
  people_new_by_day: Record<string, number>;
  /** Scanners by the UTC day they were first seen; days with none are absent. */
  scanners_by_day: Record<string, number>;
}

/** The visitors summary, read with its version and written conditionally. */
export type VisitorsSummaries = Conditional<VisitorsSummary, []>;

/** The figures the count reads (the pulse and the Admin count): all from one point read of the visitors summary. */
export interface PeopleFigures {
  people_all_time: number;
  scanners_left_out: number;
  counted_from: string | null;
  /** New people by day, for the days on or after `since` that have any. */
  people_new_by_day: Record<string, number>;
}

/** The reading side of the count: one point read, whatever the number of visitors. */
export interface VisitorsSummaryReader {
  /** The people figures with new people by day from `since` (`yyyy-MM-dd`, UTC); all zero and null before the first visitor. */
  peopleFrom(since: string): Promise<PeopleFigures>;
}

/** A visitors summary with nothing counted yet. */
export const emptyVisitorsSummary = (): VisitorsSummary => ({
  id: VISITORS_SUMMARY_ID,
  pk: VISITORS_PK,
  kind: 'visitors-summary',
  people_all_time: 0,
  scanners_left_out: 0,
  counted_from: null,
  people_new_by_day: {},
  scanners_by_day: {},
});

/** The people figures a summary (or none yet) answers from a day on. */
export function peopleFiguresOf(summary: VisitorsSummary | null, since: string): PeopleFigures {
  const byDay = Object.entries(summary?.people_new_by_day ?? {}).filter(([day]) => day >= since);
  return {
    people_all_time: summary?.people_all_time ?? 0,
    scanners_left_out: summary?.scanners_left_out ?? 0,
    counted_from: summary?.counted_from ?? null,
    people_new_by_day: Object.fromEntries(byDay.sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
