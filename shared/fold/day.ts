import type { RollupRules } from '../core/rollup/day-rollup';
import { errorLine } from '../core/errors';
import type { FoldingStore } from '../core/store';
import { foldActivitySlice } from './activity';
import { sliceOf } from './slice';
import type { WatermarkedScan } from './subjects';
import type { GoalAction } from '../core/store/facts';
import { filteredCohortRegisters, type CohortRegisters } from '../core/rollup/cohorts';
import { byToken } from './build';
import { foldLongPeriods, type PeriodMove } from './periods';
import { boundedMap } from '../core/bounded-map';
import { conditionalWritesOnce } from './write';
import type { FoldedChange } from '../core/store/conditional-write';
import type { ActivityDoc } from '../core/store/activity';

/** Days of a round folded side by side. */
export const DAYS_AT_ONCE = 4;

/** Where a day's fold starts: the day, its watermark, the run's bound, and whether a new rollup builds from kept days. */
export interface DayStart {
  day: string;
  watermark: number;
  bound: number;
  buildsFromKept: boolean;
  /** Whether the day moves the months and the filter cells. */
  periods: boolean;
}

/** What one slice of a day did: the watermark it reached, the facts it folded and their scans, and whether it caught up. */
export type DayOutcome =
  | {
      ok: true;
      day: string;
      upTo: number;
      facts: number;
      /** Engagements whose token had no visitor-day, left out (folded again when a slice is). */
      dropped: number;
      caughtUp: boolean;
      scans: WatermarkedScan[];
      actions: GoalAction[];
      /** The filter values' retention cells the slice's tokens add people to. */
      cohorts: CohortRegisters;
      /** Left to the round, which writes them in this order (SliceFolded). */
      moves: PeriodMove[];
      writes: FoldedChange<ActivityDoc>[];
    }
  | { ok: false; day: string; reason: string };

/**
 * Folds one slice of a day's facts into its rollup and day cells, leaving its months and visitor-days to the round. A
 * rollup marked past the day's watermark is the trace of a run that died inside its slice: that exact slice is folded again
 * (its documents hold how far they got), and only then a new one. A day with no new facts is not read further. Never
 * throws.
 */
export async function foldDay(
  store: Pick<FoldingStore, 'facts' | 'activity' | 'rollups' | 'periods'>,
  start: DayStart,
  rules: RollupRules,
  limit: number,
): Promise<DayOutcome> {
  const { day, watermark, bound } = start;
  try {
    const next = await sliceOf(
      (most) => store.facts.firstOn(day, watermark, bound, most),
      (upTo) => store.facts.on(day, watermark, upTo),
      limit,
      bound,
    );
    if (next.items.length === 0)
      return {
        ok: true,
        day,
        upTo: next.upTo,
        facts: 0,
        dropped: 0,
        caughtUp: true,
        scans: [],
        actions: [],
        cohorts: new Map(),
        moves: [],
        writes: [],
      };
    const rollup = await store.rollups.read(day);
    const pending = rollup !== null && rollup.doc.folded_to > watermark ? rollup.doc.folded_to : null;
    const slice =
      pending === null || pending === next.upTo
        ? next
        : { items: await store.facts.on(day, watermark, pending), upTo: pending, caughtUp: pending >= bound };
    const { rows, dropped, moves, writes } = await foldActivitySlice(
      store,
      { day, facts: slice.items, upTo: slice.upTo, rollup, buildsFromKept: start.buildsFromKept, periods: start.periods },
      rules,
    );
    const cohorts: CohortRegisters = new Map();
    for (const token of byToken(rows).values()) filteredCohortRegisters(token, rules, cohorts);
    const scans = slice.items.flatMap(({ doc, watermark: at }) => doc.scans.map((scan) => ({ scan, day, watermark: at })));
    const actions = slice.items.flatMap(({ doc }) => doc.actions ?? []);
    const facts = slice.items.length;
    return { ok: true, day, upTo: slice.upTo, facts, dropped, caughtUp: slice.caughtUp, scans, actions, cohorts, moves, writes };
  } catch (error) {
    return { ok: false, day, reason: errorLine(error) };
  }
}

/**
 * The round's months and years, each written once for all its days, then each day's visitor-days and hours, so a run
 * that dies between them refolds the slice and finds the months holding it. A day whose writes fail is answered failed.
 */
export async function finishDays(
  store: Pick<FoldingStore, 'activity' | 'periods'>,
  outcomes: readonly DayOutcome[],
): Promise<DayOutcome[]> {
  const sliced = outcomes.filter((outcome) => outcome.ok);
  const stuck = await foldLongPeriods(
    store.periods,
    sliced.flatMap((outcome) => outcome.moves),
  );
  const finished: DayOutcome[] = outcomes.filter((outcome) => !outcome.ok);
  await boundedMap(sliced, DAYS_AT_ONCE, async (outcome) => {
    const reason = stuck.get(outcome.day);
    if (reason !== undefined) return void finished.push({ ok: false, day: outcome.day, reason });
    try {
      await conditionalWritesOnce(store.activity, outcome.writes, (change) => `activity ${outcome.day} ${change.after.id}`);
      finished.push(outcome);
    } catch (error) {
      finished.push({ ok: false, day: outcome.day, reason: errorLine(error) });
    }
  });
  return finished;
}
