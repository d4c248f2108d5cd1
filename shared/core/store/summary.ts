import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

export const VISITORS_SUMMARY_ID = 'visitors-summary';

/**
 * Each day is counted again from the records whenever one of them changes, so it is exact.
 * Scanners count on their first day, and scanners_left_out outlives their records.
 */
export interface VisitorsSummary {
  id: typeof VISITORS_SUMMARY_ID;
  pk: typeof VISITORS_PK;
  kind: 'visitors-summary';
  /** The sum of people_new_by_day. */
  people_all_time: number;
  /** The sum of scanners_by_day. */
  scanners_left_out: number;
  /** Never a scanner's day; null until the first person. */
  counted_from: string | null;
  /** Days with none are absent. */
  people_new_by_day: Record<string, number>;
  /** By the day first seen; days with none are absent. */
  scanners_by_day: Record<string, number>;
}

export type VisitorsSummaries = Conditional<VisitorsSummary, []>;

/** One point read answers all of them. */
export interface PeopleFigures {
  people_all_time: number;
  scanners_left_out: number;
  counted_from: string | null;
  /** Days on or after `since` that have any. */
  people_new_by_day: Record<string, number>;
}

/** One point read, whatever the number of visitors. */
export interface VisitorsSummaryReader {
  /** All zero and null before the first visitor. */
  peopleFrom(since: string): Promise<PeopleFigures>;
}

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

export function peopleFiguresOf(summary: VisitorsSummary | null, since: string): PeopleFigures {
  const byDay = Object.entries(summary?.people_new_by_day ?? {}).filter(([day]) => day >= since);
  return {
    people_all_time: summary?.people_all_time ?? 0,
    scanners_left_out: summary?.scanners_left_out ?? 0,
    counted_from: summary?.counted_from ?? null,
    people_new_by_day: Object.fromEntries(byDay.sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
