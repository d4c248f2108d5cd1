import type { RollupRules } from '../core/rollup/day-rollup';
import { errorLine } from '../core/errors';
import type { FoldingStore } from '../core/store';
import { foldActivitySlice } from './activity';
import { sliceOf } from './slice';
import type { MarkedScan } from './subjects';
import type { GoalAction } from '../core/store/facts';
import type { InTurn } from '../core/in-turn';
import { filteredCohortRegisters, type CohortRegisters } from '../core/store/cohorts';
import { byToken } from './build';

/** Where a day's fold starts: the day, its mark, the run's bound, and whether a new rollup builds from kept days. */
export interface DayStart {
  day: string;
  mark: number;
  bound: number;
  buildsFromKept: boolean;
  /** The run's turns on the month rollups and filter cells, when the day moves them; null when it does not. */
  periods: InTurn | null;
}

/** What one slice of a day did: the mark it reached, the facts it folded and their scans, and whether it caught up. */
export type DayOutcome =
  | {
      ok: true;
      day: string;
      upTo: number;
      facts: number;
      caughtUp: boolean;
      scans: MarkedScan[];
      actions: GoalAction[];
      /** The filter values' retention cells the slice's tokens add people to. */
      cohorts: CohortRegisters;
    }
  | { ok: false; day: string; reason: string };

/**
 * Folds one slice of a day's facts. A rollup marked past the day's mark is the trace of a run that died inside its
 * slice: that exact slice is folded again (its documents hold how far they got), and only then a new one. Never throws.
 */
export async function foldDay(
  store: Pick<FoldingStore, 'facts' | 'activity' | 'rollups' | 'periods'>,
  start: DayStart,
  rules: RollupRules,
  limit: number,
): Promise<DayOutcome> {
  const { day, mark, bound } = start;
  try {
    const rollup = await store.rollups.read(day);
    const pending = rollup !== null && rollup.doc.folded_to > mark ? rollup.doc.folded_to : null;
    const slice =
      pending !== null
        ? { items: await store.facts.on(day, mark, pending), upTo: pending, caughtUp: pending >= bound }
        : await sliceOf(
            (most) => store.facts.firstOn(day, mark, bound, most),
            (upTo) => store.facts.on(day, mark, upTo),
            limit,
            bound,
          );
    const rows =
      slice.items.length === 0
        ? []
        : await foldActivitySlice(
            store,
            { day, facts: slice.items, upTo: slice.upTo, rollup, buildsFromKept: start.buildsFromKept, periods: start.periods },
            rules,
          );
    const cohorts: CohortRegisters = new Map();
    for (const token of byToken(rows).values()) filteredCohortRegisters(token, rules, cohorts);
    const scans = slice.items.flatMap(({ doc, mark: at }) => doc.scans.map((scan) => ({ scan, day, mark: at })));
    const actions = slice.items.flatMap(({ doc }) => doc.actions ?? []);
    return { ok: true, day, upTo: slice.upTo, facts: slice.items.length, caughtUp: slice.caughtUp, scans, actions, cohorts };
  } catch (error) {
    return { ok: false, day, reason: errorLine(error) };
  }
}
