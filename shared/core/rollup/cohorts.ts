import { addPerson, raiseRegisters } from '../sketch';
import { actionDay, type GoalAction } from '../store/facts';
import type { VisitorDay } from '../store/activity';
import { COHORT_WEEKS, cohortCellId, cohortsPk, weekOf, type CohortSpan } from '../store/cohorts';
import type { RollupRules } from './day-rollup';
import { cellPartition, valuesOf } from './filters';

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

export function mergedCohortRegisters(maps: readonly CohortRegisters[]): CohortRegisters {
  const merged: CohortRegisters = new Map();
  for (const cells of maps)
    for (const [key, cell] of cells) {
      const into = merged.get(key) ?? { ...cell, registers: {} };
      raiseRegisters(into.registers, cell.registers);
      merged.set(key, into);
    }
  return merged;
}

function addSeen(cells: CohortRegisters, pk: string, first: string, day: string, registers: Record<string, number>, weeks = true): void {
  const add = (span: CohortSpan, cohort: string, at: string) => {
    const key = `${pk}\n${cohortCellId(span, cohort, at)}`;
    const cell = cells.get(key) ?? { pk, span, cohort, at, registers: {} };
    raiseRegisters(cell.registers, registers);
    cells.set(key, cell);
  };
  add('month', first.slice(0, 7), day.slice(0, 7));
  const [week, seen] = [weekOf(first), weekOf(day)];
  if (weeks && weeksBetween(week, seen) < COHORT_WEEKS) add('week', week, seen);
}

const addPersonSeen = (cells: CohortRegisters, pk: string, first: string, day: string, person: string) =>
  addSeen(cells, pk, first, day, addPerson({}, person));

export function cohortRegisters(actions: readonly GoalAction[], cells: CohortRegisters = new Map()): CohortRegisters {
  for (const action of actions) {
    const day = actionDay(action);
    // An action kept before first days were carried, or before its person's first day, is no one's cohort.
    if (action.first === undefined || action.first > day) continue;
    addPersonSeen(cells, cohortsPk(), action.first, day, action.person);
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
