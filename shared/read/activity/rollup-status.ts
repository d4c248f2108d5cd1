import type { DayRollup } from '../../core/store/rollups';
import type { FoldState } from '../../core/store/fold';

/** Whether the rollups hold every day of a period, and from which day back they are still being built. */
export interface RollupStatus {
  complete: boolean;
  /** The oldest day the build of rollups has reached (days before it are not in the figures yet); null when done. */
  built_back_to: string | null;
}

/** A day with no rollup otherwise had nothing, and reads as zeros. */
export function rollupStatus(
  state: Partial<FoldState> | null,
  rollups: ReadonlyMap<string, DayRollup>,
  days: readonly string[],
): RollupStatus {
  const notBuilt = (day: string) => {
    const rollup = rollups.get(day);
    if (rollup !== undefined) return rollup.building !== null;
    if (state === null) return false;
    // A fold state from before rollups: nothing is built yet.
    if (state.rollups_from === undefined) return true;
    return day < state.rollups_from && state.build !== null && state.build !== undefined && day <= state.build;
  };
  const pending = state?.rollups_from === undefined ? (state === null ? null : 'today') : (state.build ?? null);
  return {
    complete: !days.some(notBuilt),
    built_back_to: pending === null ? null : pending === 'today' ? (days[days.length - 1] ?? null) : pending,
  };
}
