import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

/** The visits summary's id in the `visitors` partition. */
export const VISITS_SUMMARY_ID = 'visits-summary';

/**
 * The visits by people, one a person a day from the daily tokens (pk `visitors`, id `visits-summary`), folded by the
 * fold: each day's figure is the count of that day's visitor-days marked as a visit, taken again whenever
 * the day's activity changes. Every day is a UTC `yyyy-MM-dd`.
 */
export interface VisitsSummary {
  id: typeof VISITS_SUMMARY_ID;
  pk: typeof VISITORS_PK;
  kind: 'visits-summary';
  /** Visits by people on every kept day. */
  all_time: number;
  /** The first kept day with a person on it; null until the first person. */
  from: string | null;
  /** Visits by people by day, every kept day that has any. */
  by_day: Record<string, number>;
}

/** The visits summary, read with its version and written conditionally. */
export type VisitsSummaries = Conditional<VisitsSummary, []>;

/** A visits summary with nothing counted yet. */
export function emptyVisits(): VisitsSummary {
  return { id: VISITS_SUMMARY_ID, pk: VISITORS_PK, kind: 'visits-summary', all_time: 0, from: null, by_day: {} };
}
