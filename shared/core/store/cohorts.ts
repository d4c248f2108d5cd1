import { addDays } from '../days';
import { registerOf, type Sketch } from '../rollup/sketch';
import type { Conditional } from './documents';
import type { GoalAction } from './facts';
import type { VisitorDay } from './activity';
import type { RollupRules } from '../rollup/day-rollup';
import { cellPartition, valuesOf } from '../rollup/filters';

/** How many weeks after its first a weekly cohort keeps cells for: the Retention panel shows the last 12 weeks. */
export const COHORT_WEEKS = 12;

/** A weekly cell lives a little past the weeks it can be read in (Cosmos DB's per-item time to live, in seconds). */
export const WEEK_CELL_TTL_SECONDS = (COHORT_WEEKS + 2) * 7 * 86_400;

/**
 * The partition of the whole site's retention cells, so a read is one query whatever its months. A filter value's
 * are in its own cells' partition (cellPartition), beside its rollups.
 */
export const cohortsPk = () => 'cohorts';

/** The id of one cell: a cohort (first month or week) and a later month or week its people came in. */
export const cohortCellId = (span: CohortSpan, cohort: string, at: string) => `${span}:${cohort}:${at}`;

export type CohortSpan = 'month' | 'week';

/** The id of one cohort's figures: its people in its own and each later month (or week). */
export const cohortFiguresId = (span: CohortSpan, cohort: string) => `figures:${span}:${cohort}`;

/**
 * One cohort's figures (pk `cohorts`, or a filter value's cells partition; id `figures:<span>:<cohort>`): each cell's people as its sketch now estimates
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

/** The people one fold round adds to one cell: where the cell is kept, and the registers of its people (never a hash). */
export interface CellRegisters {
  pk: string;
  span: CohortSpan;
  cohort: string;
  at: string;
  registers: Record<string, number>;
}

/** A round's cells by partition and id, each with the registers it gains. */
export type CohortRegisters = Map<string, CellRegisters>;

/** Registers raised to those given, by register maximum. */
const raise = (into: Record<string, number>, registers: Record<string, number>) => {
  for (const [register, rank] of Object.entries(registers)) if ((into[register] ?? 0) < rank) into[register] = rank;
};

/** Several slices' cells in one map, each cell's registers merged. */
export function mergedRegisters(maps: readonly CohortRegisters[]): CohortRegisters {
  const merged: CohortRegisters = new Map();
  for (const cells of maps)
    for (const [key, cell] of cells) {
      const into = merged.get(key) ?? { ...cell, registers: {} };
      raise(into.registers, cell.registers);
      merged.set(key, into);
    }
  return merged;
}

/**
 * Adds registers to the cells of a first day's month cohort (and, with `weeks`, its week cohort), seen on `day`, in
 * partition `pk`.
 */
function addSeen(cells: CohortRegisters, pk: string, first: string, day: string, registers: Record<string, number>, weeks = true): void {
  const add = (span: CohortSpan, cohort: string, at: string) => {
    const key = `${pk}\n${cohortCellId(span, cohort, at)}`;
    const cell = cells.get(key) ?? { pk, span, cohort, at, registers: {} };
    raise(cell.registers, registers);
    cells.set(key, cell);
  };
  add('month', first.slice(0, 7), day.slice(0, 7));
  const [week, seen] = [weekOf(first), weekOf(day)];
  if (weeks && weeksBetween(week, seen) < COHORT_WEEKS) add('week', week, seen);
}

const addPerson = (cells: CohortRegisters, pk: string, first: string, day: string, person: string) => {
  const [register, rank] = registerOf(person);
  addSeen(cells, pk, first, day, { [register]: rank });
};

/** The whole site's cells a slice's actions add people to. */
export function cohortRegisters(actions: readonly GoalAction[], cells: CohortRegisters = new Map()): CohortRegisters {
  for (const action of actions) {
    const day = action.at.slice(0, 10);
    // An action kept before first days were carried, or before the day its person was first counted, is no one's cohort.
    if (action.first === undefined || action.first > day) continue;
    addPerson(cells, cohortsPk(), action.first, day, action.person);
  }
  return cells;
}

/**
 * The filter values' month cells one daily token's visitor-days (as a slice leaves them) add people to: every person
 * of the token, by their first day, into the cells of every value the token holds, as the filter cells count a
 * visitor-day's people. Week cohorts are kept for the whole site only: a filter's would double the fold's writes. Folded again from the same visitor-days, it adds the same registers, so a slice folded again adds nothing.
 * Visitor-days kept before first days were (no `first_days`) add no one.
 */
export function filteredCohortRegisters(
  token: readonly VisitorDay[],
  rules: RollupRules,
  cells: CohortRegisters = new Map(),
): CohortRegisters {
  const firsts = token.flatMap((doc) => Object.entries(doc.first_days ?? {}));
  if (firsts.length === 0) return cells;
  const values = valuesOf(token, rules, true);
  for (const [dimension, named] of values)
    for (const value of named)
      for (const [first, registers] of firsts) addSeen(cells, cellPartition(dimension, value), first, token[0]!.day, registers, false);
  return cells;
}

/** Where the retention cells and figures are kept: conditional writes for the fold, one partition query for the read. */
export interface CohortsStore {
  cells: Conditional<CohortCell, [pk: string, id: string]>;
  figures: Conditional<CohortFigures, [pk: string, id: string]>;
  /** The figures in partition `pk` of month cohorts from `fromMonth` and of week cohorts from `fromWeek` (one query). */
  since(pk: string, fromMonth: string, fromWeek: string): Promise<CohortFigures[]>;
}
