import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

export const VISITS_SUMMARY_ID = 'visits-summary';

/** One a person a day from the daily tokens; a day is counted again whenever its activity changes. */
export interface VisitsSummary {
  id: typeof VISITS_SUMMARY_ID;
  pk: typeof VISITORS_PK;
  kind: 'visits-summary';
  all_time: number;
  /** Null until the first person. */
  from: string | null;
  /** Days with none are absent. */
  by_day: Record<string, number>;
}

export type VisitsSummaries = Conditional<VisitsSummary, []>;

export function emptyVisits(): VisitsSummary {
  return { id: VISITS_SUMMARY_ID, pk: VISITORS_PK, kind: 'visits-summary', all_time: 0, from: null, by_day: {} };
}
