import { inLanes } from '../core/lanes';
import {
  cohortCellId,
  cohortFiguresId,
  cohortRegisters,
  cohortsPk,
  WEEK_CELL_TTL_SECONDS,
  type CohortCell,
  type CohortFigures,
  type CohortSpan,
  type CohortsStore,
} from '../core/store/cohorts';
import { estimate, mergeKept } from '../core/rollup/sketch';
import { conditionalWriteOnce } from '../core/store/conditional-write';
import type { GoalAction } from '../core/store/facts';
import { FOLD_WRITES_AT_ONCE } from './write';

const ttlOf = (span: CohortSpan) => (span === 'week' ? { ttl: WEEK_CELL_TTL_SECONDS } : {});

/**
 * Folds a round's people's actions into the retention cells, then sets their cohorts' figures: each person's registers
 * merged into the cell of their first month (and week) and the month (and week) of the action. A merge is a register
 * maximum and a figure is set from its cell, so a slice folded again after a run died changes nothing, and a document
 * is written only when it changed.
 */
export async function foldCohorts(store: CohortsStore, actions: readonly GoalAction[]): Promise<void> {
  const touched = [...cohortRegisters(actions).values()];
  const people = new Map<string, { span: CohortSpan; cohort: string; at: Record<string, number> }>();
  await inLanes(touched, FOLD_WRITES_AT_ONCE, async ({ span, cohort, at, registers }) => {
    const id = cohortCellId(span, cohort, at);
    const read = await store.cells.read(id);
    const before = read?.doc ?? null;
    const sketch = mergeKept(before?.people_sketch, registers);
    const figures = people.get(cohortFiguresId(span, cohort)) ?? { span, cohort, at: {} };
    figures.at[at] = estimate(sketch);
    people.set(cohortFiguresId(span, cohort), figures);
    if (before !== null && JSON.stringify(sketch) === JSON.stringify(before.people_sketch)) return;
    const after: CohortCell = { id, pk: cohortsPk(), kind: 'cohort-cell', span, cohort, at, people_sketch: sketch, ...ttlOf(span) };
    await conditionalWriteOnce(store.cells, { before, etag: read?.etag ?? null, after }, `cohort ${id}`);
  });
  await inLanes([...people], FOLD_WRITES_AT_ONCE, async ([id, { span, cohort, at }]) => {
    const read = await store.figures.read(id);
    const before = read?.doc ?? null;
    const after: CohortFigures = {
      id,
      pk: cohortsPk(),
      kind: 'cohort-figures',
      span,
      cohort,
      people: { ...before?.people, ...at },
      ...ttlOf(span),
    };
    if (before !== null && JSON.stringify(after.people) === JSON.stringify(before.people)) return;
    await conditionalWriteOnce(store.figures, { before, etag: read?.etag ?? null, after }, `cohort ${id}`);
  });
}
