import { BOT_REASONS } from '../identity/who';
import type { VisitorDay } from '../store/activity';
import type { ImportedTotals } from '../store/imports';
import { addCounts, capped, copyCounts, countsOfToken, emptyCounts, lacksSketch, returningOfDocs, type RollupRules } from './day-rollup';
import { BY_WHO_FIELDS, type RollupCounts } from '../store/rollups';
import { MONTHS_PK, type DayFigures, type PeriodRollup, type Span } from '../store/periods';
import { cellPartition, valuesOf } from './filters';
import { CELL_DIMENSIONS, type Dimension } from '../dimensions';
import { estimate, mergeKept, type Sketch } from '../sketch';

/**
 * Ten times a day rollup's top, so a name pushed under `(other)` that comes back is far below the 50 the card lists.
 * Full, that is about 600 KB, well under Cosmos DB's 2 MB.
 */
export const PERIOD_TOP = 1_000;

export const distinctOf = (doc: {
  people_sketch: Sketch;
  new_sketch?: Sketch;
  returning_sketch?: Sketch;
}): Pick<DayFigures, 'people_each' | 'people_new' | 'returning'> => ({
  people_each: estimate(doc.people_sketch),
  people_new: estimate(doc.new_sketch),
  ...(doc.returning_sketch === undefined ? {} : { returning: estimate(doc.returning_sketch) }),
});

export interface TokenChange {
  before: readonly VisitorDay[];
  after: readonly VisitorDay[];
}

export interface PeriodDelta {
  changes: Array<{ out: RollupCounts; in: RollupCounts }>;
  sketches: Array<Record<string, number>>;
  fresh: Array<Record<string, number>>;
  back: Array<Record<string, number>>;
  partial: boolean;
}

/** Kept for the site and for every filter value. */
export const LONG_SPANS = ['month', 'year'] as const;

export const periodAt = (span: Span, day: string) => day.slice(0, { day: 10, month: 7, year: 4 }[span]);

/** A null filter is the site's own rollup. */
export const periodKey = (span: Span, day: string, filter: { dimension: Dimension; value: string } | null) => ({
  pk: filter === null ? MONTHS_PK : cellPartition(filter.dimension, filter.value),
  id: `${span}:${periodAt(span, day)}`,
});

const peopleOf = (docs: readonly VisitorDay[]) => docs.flatMap((doc) => (doc.people_sketch === undefined ? [] : [doc.people_sketch]));
const newPeopleOf = (docs: readonly VisitorDay[]) => docs.flatMap((doc) => (doc.new_sketch === undefined ? [] : [doc.new_sketch]));

export function siteDelta(changes: readonly TokenChange[], rules: RollupRules): PeriodDelta {
  return {
    changes: changes.map(({ before, after }) => ({ out: countsOfToken(before, rules), in: countsOfToken(after, rules) })),
    sketches: changes.flatMap(({ after }) => peopleOf(after)),
    fresh: changes.flatMap(({ after }) => newPeopleOf(after)),
    back: changes.flatMap(({ after }) => returningOfDocs(after)),
    partial: changes.some(({ after }) => lacksSketch(after)),
  };
}

/** Every value the changed tokens held before or after. */
export function cellDeltas(
  changes: readonly TokenChange[],
  rules: RollupRules,
): Map<string, { dimension: Dimension; value: string; delta: PeriodDelta }> {
  const cells = new Map<string, { dimension: Dimension; value: string; delta: PeriodDelta }>();
  for (const { before, after } of changes) {
    const was = valuesOf(before, rules);
    const is = valuesOf(after, rules);
    const sketches = peopleOf(after).filter((registers) => Object.keys(registers).length > 0);
    // A scanner's or the site's own visitor-day adds no people to any cell.
    const seen = sketches.length === 0 ? new Map<Dimension, Set<string>>() : valuesOf(after, rules, true);
    for (const dimension of CELL_DIMENSIONS) {
      const then = was.get(dimension) ?? new Set<string>();
      const now = is.get(dimension) ?? new Set<string>();
      const people = seen.get(dimension) ?? new Set<string>();
      for (const value of new Set([...then, ...now, ...people])) {
        const key = `${dimension}\n${value}`;
        const cell = cells.get(key) ?? { dimension, value, delta: { changes: [], sketches: [], fresh: [], back: [], partial: false } };
        cell.delta.changes.push({
          out: then.has(value) ? countsOfToken(before, rules) : emptyCounts(),
          in: now.has(value) ? countsOfToken(after, rules) : emptyCounts(),
        });
        if (people.has(value)) cell.delta.sketches.push(...sketches);
        if (people.has(value)) cell.delta.fresh.push(...newPeopleOf(after));
        if (people.has(value)) cell.delta.back.push(...returningOfDocs(after));
        if (now.has(value) && lacksSketch(after)) cell.delta.partial = true;
        cells.set(key, cell);
      }
    }
  }
  return cells;
}

export function emptyPeriodRollup(
  key: { pk: string; id: string },
  filter: PeriodRollup['filter'],
  span: PeriodRollup['span'],
  at: string,
): PeriodRollup {
  // Not `...key`: Node 20 builds a literal that opens with a spread and adds fields about forty times slower.
  return {
    pk: key.pk,
    id: key.id,
    kind: 'period-rollup',
    span,
    at,
    filter,
    ...emptyCounts(),
    people_sketch: { sparse: {} },
    returning_sketch: { sparse: {} },
    sketch_partial: false,
    folded_days: {},
    by_day: {},
  };
}

/** A day's loopback counts once, so the slices' deltas cannot give this: the period's before, less the day's before, plus its now. */
const kindsWith = (
  period: Pick<DayFigures, 'visitor_days' | 'left_out'>,
  was: DayFigures | undefined,
  now: DayFigures,
): Pick<DayFigures, 'visitor_days' | 'left_out'> => {
  const visitor_days = { ...period.visitor_days };
  const left_out = { ...period.left_out };
  for (const kind of BY_WHO_FIELDS) visitor_days[kind] += now.visitor_days[kind] - (was?.visitor_days[kind] ?? 0);
  for (const reason of BOT_REASONS) left_out[reason] += (now.left_out?.[reason] ?? 0) - (was?.left_out?.[reason] ?? 0);
  return { visitor_days, left_out };
};

/** One day's slice moving a rollup; `figures` is null for a day cell, whose counts are its day's. */
export interface SliceMove {
  day: string;
  upTo: number;
  delta: PeriodDelta;
  figures: DayFigures | null;
  imported?: ImportedTotals;
}

/** Moves the copy in place. */
function moveBy(next: PeriodRollup, { day, upTo, delta, figures, imported }: SliceMove): void {
  const period = { visitor_days: { ...next.visitor_days }, left_out: { ...next.left_out } };
  for (const change of delta.changes) {
    addCounts(next, change.out, -1);
    addCounts(next, change.in, 1);
  }
  const dayNow = figures ?? { visitor_days: next.visitor_days, left_out: next.left_out, page_loads: next.page_loads };
  Object.assign(next, kindsWith(period, next.by_day[day], dayNow));
  next.by_day[day] = dayNow;
  next.sketch_partial ||= delta.partial;
  next.folded_days[day] = upTo;
  if (imported !== undefined) next.imported = { ...next.imported, [day]: imported };
  capped(next, PERIOD_TOP);
}

/**
 * The rollup moved by each slice it does not hold yet, copied once whatever their number; null when it holds them all,
 * as when a run died after writing it.
 */
export function movedPeriod(doc: PeriodRollup, moves: readonly SliceMove[]): PeriodRollup | null {
  const open = moves.filter(({ day, upTo }) => (doc.folded_days[day] ?? 0) < upTo);
  if (open.length === 0) return null;
  // Counts move in place, so they are copied; the maps by day only gain entries, so a shallow copy will do.
  const next = copyCounts(doc);
  next.by_day = { ...doc.by_day };
  next.folded_days = { ...doc.folded_days };
  if (doc.imported !== undefined) next.imported = { ...doc.imported };
  for (const move of open) moveBy(next, move);
  // Registers merge by maximum, so the slices' people merge once.
  const sketches = open.flatMap((move) => move.delta.sketches);
  const fresh = open.flatMap((move) => move.delta.fresh);
  const back = open.flatMap((move) => move.delta.back);
  if (sketches.length > 0) next.people_sketch = mergeKept(next.people_sketch, ...sketches);
  if (fresh.length > 0) next.new_sketch = mergeKept(next.new_sketch, ...fresh);
  if (back.length > 0) next.returning_sketch = mergeKept(next.returning_sketch, ...back);
  return next;
}
