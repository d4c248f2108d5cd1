import type { BotReason } from '../identity/who';
import type { ReferrerGroup } from '../identity/referrer-groups';
import type { NamesRollup } from '../dimensions';
import type { Sketch } from '../sketch';
import type { ImportedTotals } from './imports';
import type { VisitorDay } from './activity';
import type { Conditional } from './documents';

export const DAY_ROLLUP_ID = 'day-rollup';

/** As the chart counts them. */
export interface ByWho {
  people: number;
  scanners: number;
  self: number;
  total: number;
}

export const BY_WHO_FIELDS = ['people', 'scanners', 'self', 'total'] as const satisfies ReadonlyArray<keyof ByWho>;

export type SourceGroups = Record<ReferrerGroup, number>;

/**
 * Every field is a sum over the day's visitor-days, so changing one moves the rollup by its difference.
 * The people's sketch merges by maximum instead. Visitor-days by each browser, system and device type (every `names`
 * dimension) are one map each.
 */
export interface RollupCounts extends Record<NamesRollup, Record<string, number>> {
  visitor_days: ByWho;
  /** A scanner kept before reasons is in `scanners` only. */
  left_out: Record<BotReason, number>;
  requests: number;
  bots: number;
  page_loads: number;
  sources: SourceGroups;
  referrer_loads: Record<string, number>;
  referrer_people: Record<string, number>;
  /** Keyed by the step's paths, `/about,/about/`. */
  steps: Record<string, number>;
  /** Visitor-days by country; page loads by campaign. */
  countries: Record<string, number>;
  campaigns: Record<string, number>;
  page_paths: Record<string, number>;
  people_paths: Record<string, number>;
  entry_pages: Record<string, number>;
  /** Props are keyed `event|key|value`. */
  events: Record<string, number>;
  event_days: Record<string, number>;
  event_props: Record<string, number>;
  /** Visitor-days that reached each goal: its conversions. */
  goals: Record<string, number>;
  /** `<funnel>|<k>`: people's visitor-days that reached a funnel's first k steps; absent before funnels were kept. */
  funnel_steps?: Record<string, number>;
  /** By day: people's visits counted in the funnels by set, their visitor-days kept before first times were. */
  funnel_by_set?: Record<string, number>;
  /**
   * Time on site (docs/time-on-site.md), each absent on a rollup folded before it was kept, which then stays without:
   * people's visits that sent an engagement and their engaged ms, the first-to-last request spans of those that sent
   * none, and their visits of one page load and no event.
   */
  engaged_visits?: number;
  engaged_ms?: number;
  span_ms?: number;
  bounces?: number;
  /** By path: the visits that engaged with it, their engaged ms and the sum of their deepest scrolls; visits by exit page. */
  engaged_pages?: Record<string, number>;
  page_ms?: Record<string, number>;
  page_scroll?: Record<string, number>;
  exit_pages?: Record<string, number>;
}

/** The time on site's figures a rollup holds only when folded since they were kept. */
export const TIMED_FIGURES = ['engaged_visits', 'engaged_ms', 'span_ms', 'bounces'] as const satisfies ReadonlyArray<keyof RollupCounts>;
export const TIMED_MAPS = ['engaged_pages', 'page_ms', 'page_scroll', 'exit_pages'] as const satisfies ReadonlyArray<keyof RollupCounts>;

/** Whether a rollup was folded since time on site was kept. */
export const holdsTime = (counts: Pick<RollupCounts, 'bounces'>) => counts.bounces !== undefined;

/** Only the fold writes it, by deltas, and it always equals the day counted again from its visitor-days. */
export interface DayRollup extends RollupCounts {
  id: typeof DAY_ROLLUP_ID;
  pk: string;
  kind: 'day-rollup';
  day: string;
  /** A HyperLogLog sketch of every person with a people's request that day. */
  people_sketch: Sketch;
  /** Those first counted among people that day; absent on rollups folded before new people were kept. */
  new_sketch?: Sketch;
  /** Those first counted before that day: its returning people; absent on rollups folded before they were kept. */
  returning_sketch?: Sketch;
  /** Some visitor-day was kept before visitor-days carried the sketch, so the sketch misses it. */
  sketch_partial: boolean;
  /** All loopback rows of a day are one visitor-day of the site's own. */
  loopback: boolean;
  /** Written before the visitor-days it changes, so it says which slice a run that died must finish. */
  folded_to: number;
  /** While the timer builds an old day's rollup: the last token added, so the fold moves it only for those; then null. */
  building: string | null;
  /** Totals imported from another tool, set from the day's latest such fact, apart from the counts above. */
  imported?: ImportedTotals;
  /** A goal or funnel counted back: by its migration, the slice that set it and what it added, for the day's month and year. */
  goals_back?: Record<string, { slice: number; delta: Record<string, number> }>;
}

/** Point reads and conditional writes in the day's partition. */
export type DayRollups = Conditional<DayRollup, [day: string]>;

/** One point read a day, whatever the number of visitors. */
export interface RollupReader {
  onDays(days: readonly string[]): Promise<Map<string, DayRollup>>;
}

/** In the order of their daily tokens, for building an old day's rollup. */
export interface VisitorDayPages {
  /** Ordered by token, then id. */
  byToken(day: string, afterToken: string, limit: number): Promise<VisitorDay[]>;
}
