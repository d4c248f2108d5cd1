import { boundedMap } from '../core/bounded-map';
import {
  cohortCellId,
  cohortFiguresId,
  WEEK_CELL_TTL_SECONDS,
  type CohortCell,
  type CohortFigures,
  type CohortSpan,
  type CohortsStore,
} from '../core/store/cohorts';
import type { CohortRegisters } from '../core/rollup/cohorts';
import { estimate, mergeKept } from '../core/sketch';
import { conditionalWriteOnce } from '../core/store/conditional-write';
import { FOLD_WRITES_AT_ONCE } from './write';
import { sameJson } from '../core/same-json';

const ttlOf = (span: CohortSpan) => (span === 'week' ? { ttl: WEEK_CELL_TTL_SECONDS } : {});

/**
 * Folds a round's retention cells (the whole site's, from its people's actions, and each filter value's, from the
 * visitor-days its slices left), then sets their cohorts' figures: each cell's registers merged into it. A merge is a
 * register maximum and a figure is set from its cell, so a slice folded again after a run died changes nothing, and a
 * document is written only when it changed.
 */
export async function foldCohorts(store: CohortsStore, cells: CohortRegisters): Promise<void> {
  const people = new Map<string, { pk: string; span: CohortSpan; cohort: string; at: Record<string, number> }>();
  await boundedMap([...cells.values()], FOLD_WRITES_AT_ONCE, async ({ pk, span, cohort, at, registers }) => {
    const id = cohortCellId(span, cohort, at);
    const read = await store.cells.read(pk, id);
    const before = read?.doc ?? null;
    const sketch = mergeKept(before?.people_sketch, registers);
    const key = `${pk}\n${cohortFiguresId(span, cohort)}`;
    const figures = people.get(key) ?? { pk, span, cohort, at: {} };
    figures.at[at] = estimate(sketch);
    people.set(key, figures);
    if (before !== null && sameJson(sketch, before.people_sketch)) return;
    const after: CohortCell = { id, pk, kind: 'cohort-cell', span, cohort, at, people_sketch: sketch, ...ttlOf(span) };
    await conditionalWriteOnce(store.cells, { before, etag: read?.etag ?? null, after }, `cohort ${pk} ${id}`);
  });
  await boundedMap([...people.values()], FOLD_WRITES_AT_ONCE, async ({ pk, span, cohort, at }) => {
    const id = cohortFiguresId(span, cohort);
    const read = await store.figures.read(pk, id);
    const before = read?.doc ?? null;
    const after: CohortFigures = { id, pk, kind: 'cohort-figures', span, cohort, people: { ...before?.people, ...at }, ...ttlOf(span) };
    if (before !== null && sameJson(after.people, before.people)) return;
    await conditionalWriteOnce(store.figures, { before, etag: read?.etag ?? null, after }, `cohort ${pk} ${id}`);
  });
}
