import type { SummaryDelta } from './summary';

/** The visitor records counted as they stand, the figures the visitors summary should agree with. */
export interface RecordCensus {
  /** Records whose visitor is a person. */
  people: number;
  /** Scanner records still kept (they expire after 90 days, so the summary's running number may be higher). */
  scanners: number;
  /** The earliest day any visitor was counted among people (self included: the first person's day never moves back). */
  first_counted_on: string | null;
  /** People by the day they were counted on, for the days on or after the census's `since`. */
  new_by_day: Record<string, number>;
}

/** A change a record holds for the summary under a message id, until the message's receipt shows it finished. */
export interface PendingChange {
  message: string;
  delta: SummaryDelta;
  /** When the record took it, epoch seconds. */
  at: number;
}

/**
 * The reading side the reconciliation uses: aggregate counts over the visitor records (no GROUP BY, which the local
 * server lacks) and the pending changes on recently written records.
 */
export interface VisitorCensus {
  /** The counts, with new people by day from `since` (`yyyy-MM-dd`). */
  count(since: string): Promise<RecordCensus>;
  /** Every pending change on the records written at or after `since` (epoch seconds). */
  pendingSince(since: number): Promise<PendingChange[]>;
}
