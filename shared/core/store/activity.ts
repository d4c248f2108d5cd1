import type { BotsByReason } from '../identity/kinds';
import type { Conditional, Versioned } from './documents';

/** The most paths (and source hosts) a document keeps by name; the rest are summed under OTHER_PATHS. */
export const TOP_PATHS = 50;

/** The bucket the paths past the top are counted in, so the counts still add up to the requests. */
export const OTHER_PATHS = '(other)';

/**
 * One daily token on one store on one UTC day (pk `<yyyy-MM-dd>`, id `visitor-day:<store>:<token>`). The token
 * rotates daily, so nothing here joins one day to the next.
 */
export interface VisitorDay {
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
  /** Requests that looked like a bot. */
  bots: number;
  /** The bot requests by their reason (absent on documents folded before reasons were carried, and on older hits). */
  bots_by?: BotsByReason;
  /** Requests that were the site reading itself (so kindOf(self > 0, requests, bots) reads the visitor). */
  self: number;
  /** The most requested paths with a request count each, capped at TOP_PATHS. */
  paths: Record<string, number>;
  /** The hosts that linked here, with a page-load count each, capped at TOP_PATHS. */
  sources: Record<string, number>;
  /** Page loads, with a source or none: the ones past the sum of `sources` came with no referrer (typed, or a PDF's link). */
  page_loads: number;
  /**
   * Whether this row carries its daily token's visit: of a token's rows on a day (one a store), the first by id carries
   * it when the token reads as a person across them, so the day's visits are a count of the rows that carry one.
   */
  visit: boolean;
  /** The address's country, two letters (`XX` unknown); absent on a visitor-day kept before countries were. */
  country?: string;
  /** Requests by browser, by system and by device type (lowercase, no versions), capped at TOP_PATHS; absent on older ones. */
  browsers?: Record<string, number>;
  systems?: Record<string, number>;
  devices?: Record<string, number>;
  /** Page loads by campaign (`source|medium|campaign`, shared/identity/campaign.ts), capped at TOP_PATHS. */
  campaigns?: Record<string, number>;
  /** Page loads by path, capped at TOP_PATHS; absent on a visitor-day kept before pages were. */
  page_paths?: Record<string, number>;
  /** The path of the first page load that day, and when; absent before the first page load (or entry pages). */
  entry?: string;
  entry_at?: string;
  /**
   * The registers (shared/rollup/sketch.ts) of the persons with a people's request in it: a few numbers a person, never
   * the hash, so the day's rollup can count the period's people once. Absent on a visitor-day kept before.
   */
  people_sketch?: Record<string, number>;
  /** The registers of those of them whose first day counted among people is this day; absent on one kept before. */
  new_sketch?: Record<string, number>;
  /**
   * The registers of its people by their first day counted among people (this day or earlier), so the fold can add
   * them to the retention cells of every filter value the visitor-day holds. Absent on one kept before.
   */
  first_days?: Record<string, Record<string, number>>;
  /** Events by name, and their props by `event|key|value` (capped at TOP_PATHS); absent on a day with none. */
  events?: Record<string, number>;
  event_props?: Record<string, number>;
  /** The store's mark of the last fact folded in: a fact with a later mark is not in it yet. */
  folded_to: number;
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
  /** The store's mark of the last fact folded in. */
  folded_to: number;
}

/** An activity document, either kind. */
export type ActivityDoc = VisitorDay | ActivityHour;

/**
 * The activity documents as the fold writes them: conditional writes, the documents a day's new facts touch (one
 * query in the day's partition) and the day's visits (one aggregate query in it).
 */
export interface ActivityDocs extends Omit<Conditional<ActivityDoc, [day: string, id: string]>, 'read'> {
  /** Every visitor-day of these daily tokens on the day (each store's) and the hour documents with these ids. */
  touched(day: string, tokens: readonly string[], hourIds: readonly string[]): Promise<Versioned<ActivityDoc>[]>;
  /** How many of the day's visitor-days carry a visit. */
  visitsOn(day: string): Promise<number>;
}

/** The reading side of the hours (the Activity card's last 48 hours): one query in each day's partition. */
export interface ActivityReader {
  /** Every hour document of these days, oldest hour first. */
  hoursOn(days: readonly string[]): Promise<ActivityHour[]>;
}

/** The visitor-day document's id for a store and a daily token. */
export const visitorDayId = (store: string, token: string) => `visitor-day:${store}:${token}`;

/** The hour document's id for a store and an hour (`00`–`23`). */
export const hourId = (store: string, hour: string) => `hour:${store}:${hour}`;
