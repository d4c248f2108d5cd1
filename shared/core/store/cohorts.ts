import { addDays } from '../days';
import { registerOf, type Sketch } from '../rollup/sketch';
import type { Conditional } from './documents';
import type { GoalAction } from './facts';
import type { VisitorDay } from './activity';
import type { RollupRules } from '../rollup/day-rollup';
import { cellPartition, valuesOf } from '../rollup/filters';

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

const weeksBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 604_800_000);

/** Registers only, never a hash. */
export interface CellRegisters {
  pk: string;
  span: CohortSpan;
  cohort: string;
  at: string;
  registers: Record<string, number>;
}

export type CohortRegisters = Map<string, CellRegisters>;

const raise = (into: Record<string, number>, registers: Record<string, number>) => {
  for (const [register, rank] of Object.entries(registers)) if ((into[register] ?? 0) < rank) into[register] = rank;
};

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

export function cohortRegisters(actions: readonly GoalAction[], cells: CohortRegisters = new Map()): CohortRegisters {
  for (const action of actions) {
    const day = action.at.slice(0, 10);
    // An action kept before first days were carried, or before its person's first day, is no one's cohort.
    if (action.first === undefined || action.first > day) continue;
    addPerson(cells, cohortsPk(), action.first, day, action.person);
  }
  return cells;
}

/** Month cohorts only: a filter's week cohorts would double the fold's writes. */
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

export interface CohortsStore {
  cells: Conditional<CohortCell, [pk: string, id: string]>;
  figures: Conditional<CohortFigures, [pk: string, id: string]>;
  /** One query. */
  since(pk: string, fromMonth: string, fromWeek: string): Promise<CohortFigures[]>;
}
