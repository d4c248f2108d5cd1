import type { Who } from '../identity/who';
import type { Conditional } from './documents';
import type { FirstTouch } from './first-touch';

/** Holds the visitor records, the summaries and the fold's state. */
export const VISITORS_PK = 'visitors';

/** More than HIT_MAX_AGE_DAYS, past which a hit is refused. */
export const RECENT_DAYS = 32;

/** Days first_seen or counted_on moved away from, for the fold to count again. */
export const MOVED_DAYS = 8;

/** 90 days; people and the site's own are kept for good. */
export const SCANNER_TTL_SECONDS = 7_776_000;

export const ttlFor = (who: Who): number => (who === 'scanners' ? SCANNER_TTL_SECONDS : -1);

/** Under the person hash, which never rotates; only keep-hits writes it, and it keeps neither address nor agent. */
export interface VisitorRecord {
  /** 32 hex. */
  id: string;
  pk: typeof VISITORS_PK;
  kind: 'visitor-record';
  first_seen: string;
  last_seen: string;
  days_seen: number;
  /** Makes a day count once when messages arrive out of order; a day older than all of them is taken as counted. */
  recent_days: string[];
  /** Merged by the Stronger rule: self > people > scanners. */
  who: Who;
  /** The earliest day seen as a person; null while not a person. */
  counted_on: string | null;
  /** Days a late sighting moved first_seen or counted_on from, so the fold counts them again. */
  moved_days: string[];
  /** The keeper's clock; a write that changes neither who nor days leaves it, so the fold counts no day again. */
  counts_changed_at: string;
  /** Absent on a record kept before first touches were. */
  first_touch?: FirstTouch;
  /** Under the derived person id (docs/design.md, Identity); absent on a record under the HMAC value. */
  derived?: true;
  /** 7,776,000 for scanners, -1 for people and self. */
  ttl: number;
}

export type VisitorRecords = Conditional<VisitorRecord, [hash: string]>;

/** The days whose counts it may have changed. */
export type RecordChange = Pick<VisitorRecord, 'who' | 'first_seen' | 'counted_on' | 'moved_days' | 'counts_changed_at'>;

export interface RecordCounts {
  /** In the order of their watermarks; all of them when `limit` is infinite. */
  changed(after: number, upTo: number, limit: number): Promise<Array<RecordChange & { watermark: number }>>;
  /** Two aggregate queries in the partition. */
  countsOn(day: string): Promise<{ people: number; scanners: number }>;
}
