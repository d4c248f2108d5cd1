import type { RollupRules } from '../core/rollup/day-rollup';
import { errorLine } from '../core/errors';
import type { FoldingStore } from '../core/store';
import { foldActivitySlice } from './activity';
import { sliceOf } from './slice';
import type { MarkedScan } from './subjects';
import type { GoalAction } from '../core/store/facts';
import type { InTurn } from '../core/in-turn';

export interface DayStart {
  day: string;
  mark: number;
  bound: number;
  buildsFromKept: boolean;
  /** Null when the day does not move them. */
  periods: InTurn | null;
}

export type DayOutcome =
  | { ok: true; day: string; upTo: number; facts: number; caughtUp: boolean; scans: MarkedScan[]; actions: GoalAction[] }
  | { ok: false; day: string; reason: string };

/** A rollup marked past the day's mark means a run died inside its slice, so that slice is folded again first. Never throws. */
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
    if (slice.items.length > 0)
      await foldActivitySlice(
        store,
        { day, facts: slice.items, upTo: slice.upTo, rollup, buildsFromKept: start.buildsFromKept, periods: start.periods },
        rules,
      );
    const scans = slice.items.flatMap(({ doc, mark: at }) => doc.scans.map((scan) => ({ scan, day, mark: at })));
    const actions = slice.items.flatMap(({ doc }) => doc.actions ?? []);
    return { ok: true, day, upTo: slice.upTo, facts: slice.items.length, caughtUp: slice.caughtUp, scans, actions };
  } catch (error) {
    return { ok: false, day, reason: errorLine(error) };
  }
}
