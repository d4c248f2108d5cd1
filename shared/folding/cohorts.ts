import { inLanes } from '../lanes';
import { cohortCellId, cohortRegisters, cohortsPk, WEEK_CELL_TTL_SECONDS, type CohortCell, type CohortsStore } from '../returning/cohorts';
import { mergeKept } from '../rollup/sketch';
import { conditionalWriteOnce } from '../store/conditional-write';
import type { GoalAction } from '../store/facts';
import { FOLD_WRITES_AT_ONCE } from './write';

/**
 * Folds a round's people's actions into the retention cells: each person's registers merged into the cell of their
 * first month (and week) and the month (and week) of the action. A merge is a register maximum, so a slice folded again
 * after a run died changes nothing, and a cell is written only when it changed.
 */
export async function foldCohorts(store: CohortsStore, actions: readonly GoalAction[]): Promise<void> {
  const cells = [...cohortRegisters(actions).values()];
  await inLanes(cells, FOLD_WRITES_AT_ONCE, async ({ span, cohort, at, registers }) => {
    const id = cohortCellId(span, cohort, at);
    const read = await store.cells.read(id);
    const before = read?.doc ?? null;
    const sketch = mergeKept(before?.people_sketch, registers);
    if (before !== null && JSON.stringify(sketch) === JSON.stringify(before.people_sketch)) return;
    const after: CohortCell = {
      id,
      pk: cohortsPk(),
      kind: 'cohort-cell',
      span,
      cohort,
      at,
      people_sketch: sketch,
      ...(span === 'week' ? { ttl: WEEK_CELL_TTL_SECONDS } : {}),
    };
    await conditionalWriteOnce(store.cells, { before, etag: read?.etag ?? null, after }, `cohort ${id}`);
  });
}
