import type { BotsByReason } from '../identity/who';
import type { Conditional, Versioned } from './documents';
import type { NamesKept } from '../dimensions';

/** The most paths (and source hosts) a document keeps by name; the rest are summed under OTHER_PATHS. */
export const TOP_PATHS = 50;

/** So the counts still add up to the requests. */
export const OTHER_PATHS = '(other)';

/** A page load's source when another page of the same site linked it (a route change): no source, and not typed either. */
export const IN_SITE = '(site)';

/**
 * The token rotates daily, so nothing here joins one day to the next. Each `names` dimension's map (browsers, systems,
 * devices: lowercase, no versions, capped at TOP_PATHS) is absent on a visitor-day kept before it was.
 */
export interface VisitorDay extends Partial<Record<NamesKept, Record<string, number>>> {
  id: string;
  pk: string;
  kind: 'visitor-day';
  store: string;
  day: string;
  token: string;
  /** The address cut to its network (`203.0.113.x`). */
  network: string;
  /** The first and last request that day, ISO 8601 UTC. */
  first_seen: string;
  last_seen: string;
  requests: number;
  bots: number;
  /** Absent on documents folded before reasons were carried. */
  bots_by?: BotsByReason;
  /** Requests that were the site reading itself. */
  self: number;
  /** Capped at TOP_PATHS. */
  paths: Record<string, number>;
  /** Linking hosts' page loads, and IN_SITE's from the site itself, capped at TOP_PATHS. */
  sources: Record<string, number>;
  /** Those past the sum of `sources` came with no referrer. */
  page_loads: number;
  /** A token's first row by id carries it when the token reads as a person, so visits are a count of rows. */
  visit: boolean;
  /** The address's country, two letters (`XX` unknown); absent on a visitor-day kept before countries were. */
  country?: string;
  /** Keyed `source|medium|campaign`, capped at TOP_PATHS. */
  campaigns?: Record<string, number>;
  /** Capped at TOP_PATHS. */
  page_paths?: Record<string, number>;
  /** The first page load that day. */
  entry?: string;
  entry_at?: string;
  /** The last page load that day (the visit's exit page); absent on a visitor-day kept before exits were. */
  exit?: string;
  exit_at?: string;
  /** The sum of its engagements' ms; absent while it has none. */
  engaged_ms?: number;
  /** Each page's engaged ms and deepest scroll (0-100), capped at TOP_PATHS; absent while it has none. */
  page_ms?: Record<string, number>;
  page_scroll?: Record<string, number>;
  /** Registers, never the hash, so a rollup can count the period's people once. */
  people_sketch?: Record<string, number>;
  /** Those whose first day counted among people is this day. */
  new_sketch?: Record<string, number>;
  /** By first day, so the fold can add them to every filter value's retention cells. */
  first_days?: Record<string, Record<string, number>>;
  /** Props keyed `event|key|value`, capped at TOP_PATHS. */
  events?: Record<string, number>;
  event_props?: Record<string, number>;
  /**
   * Each path's and event's (`event:<name>`) first request that day, in ms after `first_seen` (so a visit of a few pages
   * stays within a KB), for the names `paths` and `events` keep; absent when a fact of the day was kept before first
   * times were, so funnels count it by set.
   */
  first_at?: Record<string, number>;
  /** A fact with a later watermark is not in it yet. */
  folded_to: number;
  /** Kept before the day's secrets, its token made again with a secret since deleted and its network dropped. */
  rekeyed?: true;
}

/** One store's requests in one UTC hour (pk `<yyyy-MM-dd>`, id `hour:<store>:<HH>`). */
export interface ActivityHour {
  id: string;
  pk: string;
  kind: 'activity-hour';
  store: string;
  day: string;
  /** The start of the hour, ISO 8601 UTC (`2026-10-23T10:00:00.000Z`). */
  hour: string;
  requests: number;
  bots: number;
  self: number;
  paths: Record<string, number>;
  /** A fact with a later watermark is not in it yet. */
  folded_to: number;
}

export type ActivityDoc = VisitorDay | ActivityHour;

/** Each read is one query in the day's partition. */
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

export const hourId = (store: string, hour: string) => `hour:${store}:${hour}`;

/** By instant, then by path, so a visit's exit page is the same whatever order its page loads were kept in. */
export const laterExit = (at: string, path: string, thanAt: string, thanPath: string) => at > thanAt || (at === thanAt && path > thanPath);

/** A visitor-day's first times as instants, ISO 8601 UTC. */
export function firstInstants(doc: Pick<VisitorDay, 'first_seen' | 'first_at'>): Record<string, string> | undefined {
  if (doc.first_at === undefined) return undefined;
  const start = Date.parse(doc.first_seen);
  return Object.fromEntries(Object.entries(doc.first_at).map(([key, ms]) => [key, new Date(start + ms).toISOString()]));
}

/** Instants as a visitor-day keeps them: ms after its first request. */
export const firstOffsets = (firstSeen: string, instants: Record<string, string>): Record<string, number> => {
  const start = Date.parse(firstSeen);
  return Object.fromEntries(Object.entries(instants).map(([key, at]) => [key, Date.parse(at) - start]));
};
