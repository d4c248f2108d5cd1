import type { VisitorKind } from '../identity/kinds';
import type { Conditional } from './documents';
import type { FirstTouch } from './first-touch';

/** The partition of the visitor records, the summaries and the fold's state. */
export const VISITORS_PK = 'visitors';

/** How many of a visitor's latest days the record lists (a hit older than HIT_MAX_AGE_DAYS, 7 by default, is refused). */
export const RECENT_DAYS = 32;

/** How many of the days a record's first_seen or counted_on moved away from it keeps, for the fold to count again. */
export const MOVED_DAYS = 8;

/** How long a scanner's record is kept, in seconds (90 days); a person's and the site's own are kept for good (-1). */
export const SCANNER_TTL_SECONDS = 7_776_000;

/** The record's time-to-live for a kind: scanners expire, people and self do not. */
export const ttlFor = (who: VisitorKind): number => (who === 'scanners' ? SCANNER_TTL_SECONDS : -1);

/**
 * One visitor, all time, under the person hash that does not rotate (pk `visitors`, kind `visitor-record`), written
 * only by keep-hits. Days are UTC `yyyy-MM-dd`. Nothing in it can name anyone: the hash is keyed and neither the
 * address nor the agent is kept.
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
  /**
   * The days first_seen or counted_on held before a late sighting moved them earlier (the latest MOVED_DAYS): the fold
   * counts the people and scanners of those days again, since this record no longer counts there.
   */
  moved_days: string[];
  /**
   * When a write last changed who the record is or the days it counts on (ISO 8601 UTC, the keeper's clock): a later
   * write that changes neither (a known visitor on a new day) leaves it, so the fold counts no day again for it.
   */
  counts_changed_at: string;
  /** Where the visit of the day counted among people came from; absent on a record kept before first touches were. */
  first_touch?: FirstTouch;
  /** 7,776,000 for scanners, -1 for people and self. */
  ttl: number;
}

/** The visitor records, keyed by person hash: the writing side keep-hits uses. */
export type VisitorRecords = Conditional<VisitorRecord, [hash: string]>;

/** What the fold reads of a record written since its last run: the days whose counts it may have changed. */
export type RecordChange = Pick<VisitorRecord, 'who' | 'first_seen' | 'counted_on' | 'moved_days' | 'counts_changed_at'>;

/** The visitor records as the fold reads them: the ones written between two marks, and the counts of one day. */
export interface RecordCounts {
  /** The first `limit` records written after mark `after` and at or before `upTo`, in the order of their marks (all of them when `limit` is infinite). */
  changed(after: number, upTo: number, limit: number): Promise<Array<RecordChange & { mark: number }>>;
  /** People counted on the day, and scanners first seen on it (two aggregate queries in the partition). */
  countsOn(day: string): Promise<{ people: number; scanners: number }>;
}
