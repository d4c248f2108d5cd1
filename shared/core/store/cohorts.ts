import { addDays } from '../days';
import type { Sketch } from '../sketch';
import type { Conditional } from './documents';

/** The Retention panel shows the last 12 weeks. */
export const COHORT_WEEKS = 12;

/** Cosmos DB's per-item time to live, in seconds: a little past the weeks a cell can be read in. */
export const WEEK_CELL_TTL_SECONDS = (COHORT_WEEKS + 2) * 7 * 86_400;

/** One partition, so a read is one query whatever its months. */
export const cohortsPk = () => 'cohorts';

export const cohortCellId = (span: CohortSpan, cohort: string, at: string) => `${span}:${cohort}:${at}`;

export type CohortSpan = 'month' | 'week';

export const cohortFiguresId = (span: CohortSpan, cohort: string) => `figures:${span}:${cohort}`;

/** Set by the fold, never added, so a read loads a few numbers a cohort and never a sketch. */
export interface CohortFigures {
  id: string;
  pk: string;
  kind: 'cohort-figures';
  span: CohortSpan;
  cohort: string;
  /** The cohort's people who came in each month or week (its own first), each once. */
  people: Record<string, number>;
  ttl?: number;
}

/** Adding a person twice changes no register, so a slice folded again adds nothing. */
export interface CohortCell {
  id: string;
  pk: string;
  kind: 'cohort-cell';
  span: CohortSpan;
  /** The first month (`yyyy-MM`) or the Monday of the first week (`yyyy-MM-dd`). */
  cohort: string;
  at: string;
  people_sketch: Sketch;
  /** Weekly cells expire once no read can ask for them. */
  ttl?: number;
}

export function weekOf(day: string): string {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

export interface CohortsStore {
  cells: Conditional<CohortCell, [pk: string, id: string]>;
  figures: Conditional<CohortFigures, [pk: string, id: string]>;
  /** One query. */
  since(pk: string, fromMonth: string, fromWeek: string): Promise<CohortFigures[]>;
}
