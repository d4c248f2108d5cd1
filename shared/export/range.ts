import type { VisitorDay } from '../store/activity';

/** The visitor-days of a range of UTC days, for the export: one query over the days' partitions. */
export interface VisitorDayRange {
  /** Every visitor-day document from `from` to `to` (`yyyy-MM-dd`, both included), oldest day first. */
  visitorDaysBetween(from: string, to: string): Promise<VisitorDay[]>;
}
