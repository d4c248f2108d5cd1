import { addDays } from '../core/days';
import type { FoldingStore } from '../core/store';
import type { RollupRules } from '../core/rollup/day-rollup';
import { buildRollupPage } from './build';
import type { FoldBudget } from './budget';
import type { StateWriter } from './state';
import { firstKeptDay } from '../core/store/first-day';

/** Walks back a page at a time while the run has budget, its place kept in the fold state's `build`. */
export async function buildRollups(
  deps: { store: FoldingStore; rules: RollupRules; budget: FoldBudget },
  state: StateWriter,
  more: () => Promise<boolean>,
): Promise<void> {
  if (state.current().build === null) return;
  const floor = await firstKeptDay(deps.store);
  let day = state.current().build;
  while (day !== null && (await more())) {
    if (floor === null || day < floor) day = null;
    else if (
      (await buildRollupPage(
        { rollups: deps.store.rollups, pages: deps.store.visitorDayPages },
        day,
        deps.rules,
        deps.budget.buildPage,
      )) === 'built'
    )
      day = addDays(day, -1);
    await state.write({ build: day });
  }
}
