import type { Applied, Conditional } from './documents';
import { VISITORS_PK } from './visitors';

/** The visitors summary's id in the `visitors` partition. */
export const VISITORS_SUMMARY_ID = 'visitors-summary';

/**
 * The count, kept current by keep-hits (pk `visitors`, id `visitors-summary`): a point read answers it whatever the
 * number of visitors. People + scanners_left_out is the number of distinct visitor hashes seen that are not the site's
 * own: a scanner who later reads as a person moves from scanners_left_out to people_all_time. scanners_left_out is a
 * running number that outlives the scanner records (they expire after 90 days); a hash seen again after its record
 * expired is counted again.
 */
export interface VisitorsSummary {
  id: typeof VISITORS_SUMMARY_ID;
  pk: typeof VISITORS_PK;
  kind: 'visitors-summary';
  people_all_time: number;
  scanners_left_out: number;
  /** The first day a person was counted on, never a scanner's; null until the first person. */
  counted_from: string | null;
  /** New people by the UTC day they were counted on (`yyyy-MM-dd` → people); days with none are absent. */
  people_new_by_day: Record<string, number>;
  /** Messages whose changes this summary holds, until their receipts show them finished. */
  applied: Applied;
}

/** A change to the visitors summary, made by one write of one visitor record. */
export interface SummaryDelta {
  people: number;
  scanners: number;
  /** New people by day; negative when a person's counted day moved earlier. */
  by_day: Record<string, number>;
  /** The earliest day a person was counted on in this change, or null. */
  counted_from: string | null;
}

/** The summaries in the `visitors` partition, one port per document: the writing side keep-hits uses. */
export type VisitorsSummaries = Conditional<VisitorsSummary, []>;

/** The figures the count reads (issue 4's recount and pulse): all from one point read of the visitors summary. */
export interface VisitorsTally {
  people_all_time: number;
  scanners_left_out: number;
  counted_from: string | null;
  /** New people by day, for the days on or after `since` that have any. */
  people_new_by_day: Record<string, number>;
}

/** The reading side of the count: one point read, whatever the number of visitors. */
export interface VisitorsReader {
  /** The tally with new people by day from `since` (`yyyy-MM-dd`, UTC); all zero and null before the first visitor. */
  tally(since: string): Promise<VisitorsTally>;
}

/** The tally a summary (or none yet) answers from a day on. */
export function tallyOf(summary: VisitorsSummary | null, since: string): VisitorsTally {
  const byDay = Object.entries(summary?.people_new_by_day ?? {}).filter(([day]) => day >= since);
  return {
    people_all_time: summary?.people_all_time ?? 0,
    scanners_left_out: summary?.scanners_left_out ?? 0,
    counted_from: summary?.counted_from ?? null,
    people_new_by_day: Object.fromEntries(byDay.sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
