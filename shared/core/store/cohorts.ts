import { addDays } from '../days';
import { registerOf, type Sketch } from '../rollup/sketch';
import type { Conditional } from './documents';
import type { GoalAction } from './facts';

/** How many weeks after its first a weekly cohort keeps cells for: the Retention panel shows the last 12 weeks. */
export const COHORT_WEEKS = 12;

/** A weekly cell lives a little past the weeks it can be read in (Cosmos DB's per-item time to live, in seconds). */
export const WEEK_CELL_TTL_SECONDS = (COHORT_WEEKS + 2) * 7 * 86_400;

/** The partition of the retention cells: one for the site, so a read is one query whatever its months. */
export const cohortsPk = () => 'cohorts';

/** The id of one cell: a cohort (first month or week) and a later month or week its people came in. */
export const cohortCellId = (span: CohortSpan, cohort: string, at: string) => `${span}:${cohort}:${at}`;

export type CohortSpan = 'month' | 'week';

/** The id of one cohort's figures: its people in its own and each later month (or week). */
export const cohortFiguresId = (span: CohortSpan, cohort: string) => `figures:${span}:${cohort}`;

/**
 * One cohort's figures (pk `cohorts`, id `figures:<span>:<cohort>`): each cell's people as its sketch now estimates
 * them, set (never added) by the fold after it merges the cells, so the read loads a few numbers a cohort, never a
 * sketch, and costs the months asked whatever the people.
 */
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

/**
 * The people first counted in one month (or week) who came in one later month (or week), each once: a sketch of them,
 * folded from the people's actions, whose first day each fact carries. Adding a person twice changes no register, so
 * a slice folded again adds nothing.
 */
export interface CohortCell {
  id: string;
  pk: string;
  kind: 'cohort-cell';
  span: CohortSpan;
  /** The first month (`yyyy-MM`) or the Monday of the first week (`yyyy-MM-dd`). */
  cohort: string;
  /** The month or week its people came in. */
  at: string;
  people_sketch: Sketch;
  /** Weekly cells expire once no read can ask for them. */
  ttl?: number;
}

/** The Monday of a day's ISO week. */
export function weekOf(day: string): string {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** Whole weeks from one Monday to another. */
const weeksBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 604_800_000);

/** The cells a slice's actions add people to, each with the registers of its people (never a hash). */
export function cohortRegisters(
  actions: readonly GoalAction[],
): Map<string, { span: CohortSpan; cohort: string; at: string; registers: Record<string, number> }> {
  const cells = new Map<string, { span: CohortSpan; cohort: string; at: string; registers: Record<string, number> }>();
  const add = (span: CohortSpan, cohort: string, at: string, person: string) => {
    const id = cohortCellId(span, cohort, at);
    const cell = cells.get(id) ?? { span, cohort, at, registers: {} };
    const [register, rank] = registerOf(person);
    if ((cell.registers[register] ?? 0) < rank) cell.registers[register] = rank;
    cells.set(id, cell);
  };
  for (const action of actions) {
    const day = action.at.slice(0, 10);
    // An action kept before first days were carried, or before the day its person was first counted, is no one's cohort.
    if (action.first === undefined || action.first > day) continue;
    add('month', action.first.slice(0, 7), day.slice(0, 7), action.person);
    const [week, seen] = [weekOf(action.first), weekOf(day)];
    if (weeksBetween(week, seen) < COHORT_WEEKS) add('week', week, seen, action.person);
  }
  return cells;
}

/** Where the retention cells and figures are kept: conditional writes for the fold, one partition query for the read. */
export interface CohortsStore {
  cells: Conditional<CohortCell, [id: string]>;
  figures: Conditional<CohortFigures, [id: string]>;
  /** The figures of month cohorts from `fromMonth` and of week cohorts from `fromWeek` (one partition query). */
  since(fromMonth: string, fromWeek: string): Promise<CohortFigures[]>;
}
