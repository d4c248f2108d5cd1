import { boundedMap } from '../core/bounded-map';
import type { RollupRules } from '../core/rollup/day-rollup';
import type { DayRollup } from '../core/store/rollups';
import {
  cellDeltas,
  emptyPeriodRollup,
  LONG_SPANS,
  movedPeriod,
  periodAt,
  periodKey,
  siteDelta,
  distinctOf,
  type PeriodDelta,
  type SliceMove,
  type TokenChange,
} from '../core/rollup/periods';
import { type DayFigures, type PeriodRollup } from '../core/store/periods';
import type { ImportedTotals } from '../core/store/imports';
import { conditionalWriteOnce } from '../core/store/conditional-write';
import type { PeriodRollups } from '../core/store/periods';
import { errorLine } from '../core/errors';
import { FOLD_WRITES_AT_ONCE } from './write';

/** One day's slice moving a month or a year: the site's or a filter value's. */
export interface PeriodMove extends SliceMove {
  pk: string;
  id: string;
  filter: PeriodRollup['filter'];
  span: (typeof LONG_SPANS)[number];
}

const figuresOf = (
  doc: Pick<DayRollup, 'visitor_days' | 'left_out' | 'page_loads' | 'people_sketch' | 'new_sketch' | 'returning_sketch'>,
): DayFigures => ({
  visitor_days: doc.visitor_days,
  left_out: doc.left_out,
  page_loads: doc.page_loads,
  ...distinctOf(doc),
});

const longMoves = (
  slice: { day: string; upTo: number },
  filter: PeriodRollup['filter'],
  delta: PeriodDelta,
  figures: DayFigures,
  imported?: ImportedTotals,
): PeriodMove[] =>
  LONG_SPANS.map((span) => {
    const { pk, id } = periodKey(span, slice.day, filter);
    // Field by field, as emptyPeriodRollup: a literal opening with a spread is slow to build on Node 20.
    return { pk, id, filter, span, day: slice.day, upTo: slice.upTo, delta, figures, imported };
  });

/** A day folded before returning people were kept adds none to its cell or months, so a month is the union of its days'. */
const withBack = (delta: PeriodDelta, ...days: ReadonlyArray<{ returning_sketch?: unknown }>): PeriodDelta =>
  days.some((day) => day.returning_sketch === undefined) ? { ...delta, back: [] } : delta;

/**
 * Moves the slice's day cells, each unless it holds the slice, and answers the months and years it moves, which the
 * round writes once for all its days. A day whose rollup is new has no cells yet, so they are created unread.
 */
export async function foldDayCells(
  periods: PeriodRollups,
  slice: { day: string; upTo: number; fresh: boolean },
  changes: readonly TokenChange[],
  day: DayRollup,
  rules: RollupRules,
): Promise<PeriodMove[]> {
  const { day: at, upTo } = slice;
  const moves = longMoves({ day: at, upTo }, null, withBack(siteDelta(changes, rules), day), figuresOf(day), day.imported);
  await boundedMap([...cellDeltas(changes, rules).values()], FOLD_WRITES_AT_ONCE, async ({ dimension, value, delta }) => {
    const filter = { dimension, value };
    const key = periodKey('day', at, filter);
    const read = slice.fresh ? null : await periods.read(key.pk, key.id);
    const current = read?.doc ?? emptyPeriodRollup(key, filter, 'day', at);
    const cellDelta = withBack(delta, day, current);
    const next = movedPeriod(current, [{ day: at, upTo, delta: cellDelta, figures: null }]);
    if (next !== null)
      await conditionalWriteOnce(
        periods,
        { before: read?.doc ?? null, etag: read?.etag ?? null, after: next },
        `period ${key.pk} ${key.id}`,
      );
    // A cell's month and year take the day cell's figures.
    moves.push(...longMoves({ day: at, upTo }, filter, cellDelta, figuresOf(next ?? current)));
  });
  return moves;
}

/** Each of the documents read once and written once, each day's slice unless it holds it already; a failure is noted by day. */
async function foldSome(periods: PeriodRollups, moves: readonly PeriodMove[], failed: Map<string, string>): Promise<void> {
  const byDoc = new Map<string, PeriodMove[]>();
  for (const move of moves) {
    const key = `${move.pk}\n${move.id}`;
    const some = byDoc.get(key) ?? [];
    some.push(move);
    byDoc.set(key, some);
  }
  await boundedMap([...byDoc.values()], FOLD_WRITES_AT_ONCE, async (some) => {
    const [{ pk, id, filter, span }] = some as [PeriodMove];
    try {
      const read = await periods.read(pk, id);
      const current = read?.doc ?? emptyPeriodRollup({ pk, id }, filter, span, periodAt(span, some[0]!.day));
      const doc = movedPeriod(
        current,
        [...some].sort((a, b) => (a.day < b.day ? -1 : 1)),
      );
      if (doc === null) return;
      await conditionalWriteOnce(periods, { before: read?.doc ?? null, etag: read?.etag ?? null, after: doc }, `period ${pk} ${id}`);
    } catch (error) {
      for (const move of some) failed.set(move.day, errorLine(error));
    }
  });
}

/**
 * Each month and year read once and written once for all the round's days that move it. Answers the days whose moves
 * were not written, with why: they stay at their watermarks. The site's go first, and a filter's only for days whose site's
 * were written, so a filter's people never hold someone the site's do not.
 */
export async function foldLongPeriods(periods: PeriodRollups, moves: readonly PeriodMove[]): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  await foldSome(
    periods,
    moves.filter((move) => move.filter === null),
    failed,
  );
  await foldSome(
    periods,
    moves.filter((move) => move.filter !== null && !failed.has(move.day)),
    failed,
  );
  return failed;
}
