import type { VisitorKind } from '../identity/kinds';
import type { Conditional } from './documents';
import type { SummaryDelta } from './summary';

/** The partition of the visitor records and the summaries. */
export const VISITORS_PK = 'visitors';

/** How many of a visitor's latest days the record lists (a hit older than HIT_MAX_AGE_DAYS, 7 by default, is refused). */
export const RECENT_DAYS = 32;

/** How long a scanner's record is kept, in seconds (90 days); a person's and the site's own are kept for good (-1). */
export const SCANNER_TTL_SECONDS = 7_776_000;

/** The record's time-to-live for a kind: scanners expire, people and self do not. */
export const ttlFor = (who: VisitorKind): number => (who === 'scanners' ? SCANNER_TTL_SECONDS : -1);

/**
 * One visitor, all time, under the person hash that does not rotate (pk `visitors`, kind `visitor-record`). Days are
 * UTC `yyyy-MM-dd`. Nothing in it can name anyone: the hash is keyed and neither the address nor the agent is kept.
 */
export interface VisitorRecord {
  /** The person hash, 32 hex. */
  id: string;
  pk: typeof VISITORS_PK;
  kind: 'visitor-record';
  first_seen: string;
  last_seen: string;
  /** Distinct days seen. */
  days_seen: number;
  /**
   * The latest distinct days seen, oldest first, at most RECENT_DAYS: what makes a day counted once in days_seen when
   * messages arrive out of order. A day older than all of them (and after first_seen) is taken as already counted.
   */
  recent_days: string[];
  /** Who the visitor is, merged by the Stronger rule (self > people > scanners). */
  who: VisitorKind;
  /** The day this visitor was counted among people (its earliest day seen as a person); null while not a person. */
  counted_on: string | null;
  /** 7,776,000 for scanners, -1 for people and self. */
  ttl: number;
  /**
   * The visitors-summary changes this record's writes made, by message id, until that message's receipt shows the
   * summary has them: a message retried after writing the record but before the summary finds its change here.
   */
  pending: Record<string, SummaryDelta & { at: number }>;
}

/** The visitor records, keyed by person hash: the writing side keep-hits uses. */
export type VisitorRecords = Conditional<VisitorRecord, [hash: string]>;
