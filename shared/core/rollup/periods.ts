import type { BotReason } from '../identity/kinds';
import type { VisitorDay } from '../store/activity';
import type { ImportedTotals } from '../store/imports';
import { addCounts, capped, countsOfToken, emptyCounts, lacksSketch, type Kinds, type RollupCounts, type RollupRules } from './day-rollup';
import { cellPartition, DIMENSIONS, valuesOf, type Dimension } from './filters';
import { estimate, mergeKept, type Sketch } from './sketch';

/** The partition of the whole site's month and year rollups. */
export const MONTHS_PK = 'months';

/**
 * How many names a month rollup or a filter cell keeps of each unbounded dimension: ten times a day rollup's, so a
 * name a month pushed under `(other)` and that comes back is far below the 50 the card lists (about 600 KB when all
 * are full, well under Cosmos DB's 2 MB).
 */
export const PERIOD_TOP = 1_000;

/** One day's visitor-days by kind and people's page loads, as the chart draws them. */
export interface DayFigures {
  visitor_days: Kinds;
  left_out: Record<BotReason, number>;
  page_loads: number;
  /** The day's people, each once, and those of them first counted that day (estimates; absent on days folded before). */
  people_each?: number;
  people_new?: number;
}

/** A day's people and new people, each once, from its sketches. */
export const distinctOf = (doc: { people_sketch: Sketch; new_sketch?: Sketch }): Pick<DayFigures, 'people_each' | 'people_new'> => ({
  people_each: estimate(doc.people_sketch),
  people_new: estimate(doc.new_sketch),
});

/**
 * A rollup of a day, a month or a year, folded by deltas like the day rollup: the whole site's month or year (pk
 * `months`, ids `month:<yyyy-MM>` and `year:<yyyy>`), or one filter value's cell of a day, a month or a year (pk
 * `cells:<dimension>:<hash>`, ids `day:<day>`, `month:<month>`, `year:<year>`), which counts only the people's
 * visitor-days holding that value. A partition holds one value's cells of every period, so any period of one filter is
 * one query.
 */
export interface PeriodRollup extends RollupCounts {
  id: string;
  pk: string;
  kind: 'period-rollup';
  span: Span;
  /** The day (`yyyy-MM-dd`), the month (`yyyy-MM`) or the year (`yyyy`). */
  at: string;
  /** The filter value the cell counts; null for the site's month rollup. */
  filter: { dimension: Dimension; value: string } | null;
  people_sketch: Sketch;
  /** Those of its people first counted among people on the day they are in it (absent on one folded before). */
  new_sketch?: Sketch;
  sketch_partial: boolean;
  /** For each day it holds, the fold's mark of the last slice added: a slice at or before it is in already. */
  folded_days: Record<string, number>;
  /** Each day's visitor-days by kind, so a chart by day reads the month, not its days. */
  by_day: Record<string, DayFigures>;
  /** The day's totals imported from another tool, by day (the site's months and years only). */
  imported?: Record<string, ImportedTotals>;
}

/** A daily token's visitor-days before and after a slice. */
export interface TokenChange {
  before: readonly VisitorDay[];
  after: readonly VisitorDay[];
}

/** What a slice adds to one rollup: each changed token's counts out and in, and the people to add. */
export interface PeriodDelta {
  changes: Array<{ out: RollupCounts; in: RollupCounts }>;
  sketches: Array<Record<string, number>>;
  /** The new people to add. */
  fresh: Array<Record<string, number>>;
  partial: boolean;
}

export type Span = 'day' | 'month' | 'year';

/** The spans longer than a day, each kept for the site and for every filter value. */
export const LONG_SPANS = ['month', 'year'] as const;

/** The day, month or year (`yyyy-MM-dd`, `yyyy-MM`, `yyyy`) of a span a day falls in. */
export const periodAt = (span: Span, day: string) => day.slice(0, { day: 10, month: 7, year: 4 }[span]);

/** The key of the rollup of a span a day falls in: the site's (null filter), or a filter value's cell. */
export const periodKey = (span: Span, day: string, filter: { dimension: Dimension; value: string } | null) => ({
  pk: filter === null ? MONTHS_PK : cellPartition(filter.dimension, filter.value),
  id: `${span}:${periodAt(span, day)}`,
});

const peopleOf = (docs: readonly VisitorDay[]) => docs.flatMap((doc) => (doc.people_sketch === undefined ? [] : [doc.people_sketch]));
const newPeopleOf = (docs: readonly VisitorDay[]) => docs.flatMap((doc) => (doc.new_sketch === undefined ? [] : [doc.new_sketch]));

/** The whole site's delta of a slice's changed tokens, as the day rollup takes it (shared/core/rollup/day-rollup.ts). */
export function siteDelta(changes: readonly TokenChange[], rules: RollupRules): PeriodDelta {
  return {
    changes: changes.map(({ before, after }) => ({ out: countsOfToken(before, rules), in: countsOfToken(after, rules) })),
    sketches: changes.flatMap(({ after }) => peopleOf(after)),
    fresh: changes.flatMap(({ after }) => newPeopleOf(after)),
    partial: changes.some(({ after }) => lacksSketch(after)),
  };
}

/** Each filter value a slice's changed tokens held before or after, with the delta of its cells. */
export function cellDeltas(
  changes: readonly TokenChange[],
  rules: RollupRules,
): Map<string, { dimension: Dimension; value: string; delta: PeriodDelta }> {
  const cells = new Map<string, { dimension: Dimension; value: string; delta: PeriodDelta }>();
  for (const { before, after } of changes) {
    const was = valuesOf(before, rules);
    const is = valuesOf(after, rules);
    const sketches = peopleOf(after).filter((registers) => Object.keys(registers).length > 0);
    // A visitor-day with no person's request (a scanner's, the site's own) adds no people to any cell.
    const seen = sketches.length === 0 ? new Map<Dimension, Set<string>>() : valuesOf(after, rules, true);
    for (const dimension of DIMENSIONS) {
      const then = was.get(dimension) ?? new Set<string>();
      const now = is.get(dimension) ?? new Set<string>();
      const people = seen.get(dimension) ?? new Set<string>();
      for (const value of new Set([...then, ...now, ...people])) {
        const key = `${dimension}\n${value}`;
        const cell = cells.get(key) ?? { dimension, value, delta: { changes: [], sketches: [], fresh: [], partial: false } };
        cell.delta.changes.push({
          out: then.has(value) ? countsOfToken(before, rules) : emptyCounts(),
          in: now.has(value) ? countsOfToken(after, rules) : emptyCounts(),
        });
        if (people.has(value)) cell.delta.sketches.push(...sketches);
        if (people.has(value)) cell.delta.fresh.push(...newPeopleOf(after));
        if (now.has(value) && lacksSketch(after)) cell.delta.partial = true;
        cells.set(key, cell);
      }
    }
  }
  return cells;
}

/** A rollup of a day, month or year with nothing in it yet. */
export function emptyPeriodRollup(
  key: { pk: string; id: string },
  filter: PeriodRollup['filter'],
  span: PeriodRollup['span'],
  at: string,
): PeriodRollup {
  return {
    ...key,
    kind: 'period-rollup',
    span,
    at,
    filter,
    ...emptyCounts(),
    people_sketch: { sparse: {} },
    sketch_partial: false,
    folded_days: {},
    by_day: {},
  };
}

/**
 * The visitor-days by kind of a period once one day's figures change, which its own slices' deltas cannot give (a
 * day's loopback is one): the period's before, less the day's before, plus the day's now.
 */
const kindsWith = (
  period: Pick<DayFigures, 'visitor_days' | 'left_out'>,
  was: DayFigures | undefined,
  now: DayFigures,
): Pick<DayFigures, 'visitor_days' | 'left_out'> => {
  const sum = { ...emptyCounts(), visitor_days: { ...period.visitor_days }, left_out: { ...period.left_out } };
  if (was !== undefined) addCounts(sum, { ...emptyCounts(), ...was }, -1);
  addCounts(sum, { ...emptyCounts(), ...now }, 1);
  return { visitor_days: sum.visitor_days, left_out: sum.left_out };
};

/**
 * A rollup moved by one slice of a day, or null when it holds that slice already (a run that died after writing it
 * folds the same slice again). `figures` is the day's visitor-days by kind after the slice: null for a day cell,
 * whose own counts are its day's.
 */
export function movedPeriod(
  doc: PeriodRollup,
  day: string,
  upTo: number,
  delta: PeriodDelta,
  figures: DayFigures | null,
  imported?: ImportedTotals,
): PeriodRollup | null {
  if ((doc.folded_days[day] ?? 0) >= upTo) return null;
  // The counts are moved in place, so they are copied; the maps by day only take new entries, so a shallow copy.
  const { by_day, folded_days, imported: totals, ...counts } = doc;
  const next: PeriodRollup = {
    ...structuredClone(counts),
    by_day: { ...by_day },
    folded_days: { ...folded_days },
    ...(totals === undefined ? {} : { imported: { ...totals } }),
  };
  for (const change of delta.changes) {
    addCounts(next, change.out, -1);
    addCounts(next, change.in, 1);
  }
  if (delta.sketches.length > 0) next.people_sketch = mergeKept(next.people_sketch, ...delta.sketches);
  if (delta.fresh.length > 0) next.new_sketch = mergeKept(next.new_sketch, ...delta.fresh);
  const dayNow = figures ?? { visitor_days: next.visitor_days, left_out: next.left_out, page_loads: next.page_loads };
  Object.assign(next, kindsWith(doc, doc.by_day[day], dayNow));
  next.by_day[day] = dayNow;
  next.sketch_partial ||= delta.partial;
  next.folded_days[day] = upTo;
  if (imported !== undefined) next.imported = { ...next.imported, [day]: imported };
  capped(next, PERIOD_TOP);
  return next;
}
