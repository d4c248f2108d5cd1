import type { BotsByReason } from '../identity/kinds';
import type { Conditional, Versioned } from './documents';

/** The rest are summed under OTHER_PATHS. */
export const TOP_PATHS = 50;

/** So the counts still add up to the requests. */
export const OTHER_PATHS = '(other)';

/** The token rotates daily, so nothing here joins one day to the next. */
export interface VisitorDay {
  id: string;
  pk: string;
  kind: 'visitor-day';
  store: string;
  day: string;
  token: string;
  /** Cut to its network: `203.0.113.x`. */
  network: string;
  first_seen: string;
  last_seen: string;
  requests: number;
  bots: number;
  /** Absent on documents folded before reasons were carried. */
  bots_by?: BotsByReason;
  /** So kindOf(self > 0, requests, bots) reads the visitor. */
  self: number;
  paths: Record<string, number>;
  sources: Record<string, number>;
  /** Page loads past the sum of `sources` had no referrer: typed, or a PDF's link. */
  page_loads: number;
  /** Of a token's rows on a day, the first by id carries the visit when the token reads as a person, so visits are a count of rows. */
  visit: boolean;
  /** `XX` unknown; absent on a visitor-day kept before countries were. */
  country?: string;
  /** Absent on older documents. */
  browsers?: Record<string, number>;
  systems?: Record<string, number>;
  devices?: Record<string, number>;
  /** Keyed `source|medium|campaign`. */
  campaigns?: Record<string, number>;
  /** Absent on a visitor-day kept before pages were. */
  page_paths?: Record<string, number>;
  /** Absent before the first page load, or on days kept before entry pages. */
  entry?: string;
  entry_at?: string;
  /** Sketch registers, a few numbers a person and never the hash, so a period's people count once. */
  people_sketch?: Record<string, number>;
  /** Those whose first day counted among people is this day. */
  new_sketch?: Record<string, number>;
  /** Props are keyed `event|key|value`; absent on a day with none. */
  events?: Record<string, number>;
  event_props?: Record<string, number>;
  /** A fact with a later mark is not in it yet. */
  folded_to: number;
}

export interface ActivityHour {
  id: string;
  pk: string;
  kind: 'activity-hour';
  store: string;
  day: string;
  /** ISO 8601 UTC: `2026-10-23T10:00:00.000Z`. */
  hour: string;
  requests: number;
  bots: number;
  self: number;
  paths: Record<string, number>;
  folded_to: number;
}

export type ActivityDoc = VisitorDay | ActivityHour;

/** `touched` is one query in the day's partition and `visitsOn` one aggregate query. */
export interface ActivityDocs extends Omit<Conditional<ActivityDoc, [day: string, id: string]>, 'read'> {
  touched(day: string, tokens: readonly string[], hourIds: readonly string[]): Promise<Versioned<ActivityDoc>[]>;
  visitsOn(day: string): Promise<number>;
}

/** One query in each day's partition. */
export interface ActivityReader {
  /** Oldest hour first. */
  hoursOn(days: readonly string[]): Promise<ActivityHour[]>;
}

export const visitorDayId = (store: string, token: string) => `visitor-day:${store}:${token}`;

/** `hour` is `00` to `23`. */
export const hourId = (store: string, hour: string) => `hour:${store}:${hour}`;
