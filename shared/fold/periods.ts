import { inLanes } from '../core/lanes';
import type { DayRollup, RollupRules } from '../core/rollup/day-rollup';
import {
  cellDeltas,
  emptyPeriodRollup,
  LONG_SPANS,
  movedPeriod,
  periodAt,
  periodKey,
  siteDelta,
  distinctOf,
  type DayFigures,
  type PeriodDelta,
  type PeriodRollup,
  type TokenChange,
} from '../core/rollup/periods';
import { conditionalWriteOnce } from '../core/store/conditional-write';
import type { PeriodRollups } from '../core/store/periods';
import { FOLD_WRITES_AT_ONCE } from './write';
import type { InTurn } from '../core/in-turn';

type Key = { pk: string; id: string };

async function moveOne(
  { periods, turns }: PeriodWrites,
  key: Key,
  fresh: () => PeriodRollup,
  move: (doc: PeriodRollup) => PeriodRollup | null,
): Promise<PeriodRollup> {
  let now: PeriodRollup | null = null;
  // Days of one month or year fold side by side, so each rollup takes one writer at a time.
  await turns.run(`${key.pk}\n${key.id}`, async () => {
    const read = await periods.read(key.pk, key.id);
    const current = read?.doc ?? fresh();
    const next = move(current);
    now = next ?? current;
    if (next === null) return;
    await conditionalWriteOnce(periods, { before: read?.doc ?? null, etag: read?.etag ?? null, after: next }, `period ${key.pk} ${key.id}`);
  });
  return now ?? fresh();
}

/** The turns keep one writer a document in a run. */
export interface PeriodWrites {
  periods: PeriodRollups;
  turns: InTurn;
}

const figuresOf = (doc: Pick<DayRollup, 'visitor_days' | 'left_out' | 'page_loads' | 'people_sketch' | 'new_sketch'>): DayFigures => ({
  visitor_days: doc.visitor_days,
  left_out: doc.left_out,
  page_loads: doc.page_loads,
  ...distinctOf(doc),
});

/**
 * Each rollup says which slice of each day it holds, so a run that died folds the slice again and moves only the rest.
 * Written after the day rollup and before the visitor-days, so a refolded slice sees the same changes.
 */
export async function foldPeriods(
  periods: PeriodWrites,
  slice: { day: string; upTo: number },
  changes: readonly TokenChange[],
  day: DayRollup,
  rules: RollupRules,
): Promise<void> {
  const { day: at, upTo } = slice;
  const site: PeriodDelta = siteDelta(changes, rules);
  for (const span of LONG_SPANS) {
    const key = periodKey(span, at, null);
    await moveOne(
      periods,
      key,
      () => emptyPeriodRollup(key, null, span, periodAt(span, at)),
      (doc) => movedPeriod(doc, at, upTo, site, figuresOf(day), day.imported),
    );
  }
  const cells = [...cellDeltas(changes, rules).values()];
  const dayCells = new Map<string, PeriodRollup>();
  await inLanes(cells, FOLD_WRITES_AT_ONCE, async ({ dimension, value, delta }) => {
    const filter = { dimension, value };
    const key = periodKey('day', at, filter);
    dayCells.set(
      key.pk,
      await moveOne(
        periods,
        key,
        () => emptyPeriodRollup(key, filter, 'day', at),
        (doc) => movedPeriod(doc, at, upTo, delta, null),
      ),
    );
  });
  // A cell's month and year take the day cell's figures, so they move once the day cells stand.
  const longer = cells.flatMap((cell) => LONG_SPANS.map((span) => ({ ...cell, span })));
  await inLanes(longer, FOLD_WRITES_AT_ONCE, async ({ dimension, value, delta, span }) => {
    const filter = { dimension, value };
    const key = periodKey(span, at, filter);
    const figures = figuresOf(dayCells.get(key.pk)!);
    await moveOne(
      periods,
      key,
      () => emptyPeriodRollup(key, filter, span, periodAt(span, at)),
      (doc) => movedPeriod(doc, at, upTo, delta, figures),
    );
  });
}
