import { addDays } from '../../core/days';
import type { RollupRules } from '../../core/rollup/day-rollup';
import { type DayRollup, type RollupCounts } from '../../core/store/rollups';
import { cellPartition, type Filter } from '../../core/rollup/filters';
import { distinctOf, periodAt } from '../../core/rollup/periods';
import { MONTHS_PK, type DayFigures, type PeriodRollup } from '../../core/store/periods';
import type { Sketch } from '../../core/sketch';
import type { ImportedTotals } from '../../core/store/imports';
import type { PeriodReader, Spans } from '../../core/store/periods';
import type { RollupReader } from '../../core/store/rollups';
import { cellFilter } from '../../core/rollup/filters';
import type { DaysTally } from '../../core/store/day-files';
import { tallyDays, type ScanStore, type ScanTally } from './day-files';
import { capped, emptyCounts } from '../../core/rollup/day-rollup';
import { PERIOD_TOP } from '../../core/rollup/periods';
import { MAX_DAYS } from '../../contract/queries';
import type { Dated } from './time-on-site';

/** What a period's figures are summed from: a day's rollup or cell, or a whole month's. */
export type Summable = RollupCounts & {
  people_sketch: Sketch;
  new_sketch?: Sketch;
  returning_sketch?: Sketch;
  sketch_partial: boolean;
} & Dated;

/** A period's rollups as read: what to sum, each day's visitor-days by kind, and the imported totals by day. */
export interface PeriodRead {
  parts: Summable[];
  days: Map<string, Summable>;
  byDay: Map<string, DayFigures>;
  /** Not those inside whole months. */
  dayRollups: Map<string, DayRollup>;
  imported: Array<{ day: string; imported: ImportedTotals }>;
  /** Several filters while the day files migration runs: the days before it were left out. */
  wholeFrom?: string;
  /** Several filters: the bytes of the day files' columns the question read from Blob Storage. */
  fileBytes?: number;
}

export interface WindowStore extends ScanStore {
  rollupReader: RollupReader;
  periodReader: PeriodReader;
}

type WindowRefusal = { refused: string };

export interface Plan {
  years: string[];
  months: string[];
  days: string[];
}

/** A month or year that begins before its span's day is read otherwise. */
export interface SpansFrom {
  month: string;
  year: string;
  /** The day a goal or funnel counted back was added: filter cells of the days before it lack it. */
  cells?: string;
}

/** A filter's cells miss a goal or funnel counted back on the days before it was added: those periods are summed whole. */
export const beforeCells = (periods: ReadonlyArray<readonly string[]>, from: SpansFrom) =>
  from.cells !== undefined &&
  periods.some((days) => days.length > 0 && days[0]! < from.cells!) &&
  periods.every((days) => days.length <= MAX_DAYS);

function wholeSpans(days: readonly string[], usableFrom: string, span: 'month' | 'year'): string[] {
  const asked = new Set(days);
  return [...new Set(days.map((day) => periodAt(span, day)))].filter((at) => {
    const first = span === 'year' ? `${at}-01-01` : `${at}-01`;
    const last = span === 'year' ? `${at}-12-31` : addDays(`${addDays(first, 31).slice(0, 7)}-01`, -1);
    return first >= usableFrom && asked.has(first) && asked.has(last);
  });
}

/** A period reads at most its edge days one by one, and its years and months in one query. */
export function planOf(days: readonly string[], usableFrom: SpansFrom): Plan {
  const years = wholeSpans(days, usableFrom.year, 'year');
  const inYears = (day: string) => years.includes(periodAt('year', day));
  const months = wholeSpans(
    days.filter((day) => !inYears(day)),
    usableFrom.month,
    'month',
  );
  return { years, months, days: days.filter((day) => !inYears(day) && !months.includes(periodAt('month', day))) };
}

const spansOf = (plans: readonly Plan[], days: readonly string[]): Spans => ({
  day: days,
  month: [...new Set(plans.flatMap((plan) => plan.months))],
  year: [...new Set(plans.flatMap((plan) => plan.years))],
});

const longOf = (plan: Plan, docs: readonly PeriodRollup[]) =>
  docs.filter((doc) => (doc.span === 'month' && plan.months.includes(doc.at)) || (doc.span === 'year' && plan.years.includes(doc.at)));

function periodRead(
  days: readonly string[],
  dayDocs: ReadonlyMap<string, Summable & DayFigures>,
  longDocs: readonly PeriodRollup[],
): PeriodRead {
  const byDay = new Map<string, DayFigures>();
  const imported: PeriodRead['imported'] = [];
  for (const long of longDocs) {
    for (const [day, figures] of Object.entries(long.by_day)) byDay.set(day, figures);
    for (const [day, totals] of Object.entries(long.imported ?? {})) imported.push({ day, imported: totals });
  }
  const dayRollups = new Map<string, DayRollup>();
  for (const day of days) {
    const doc = dayDocs.get(day);
    if (doc === undefined) continue;
    byDay.set(day, { ...doc, ...distinctOf(doc) });
    if ((doc as DayRollup).kind === 'day-rollup') {
      dayRollups.set(day, doc as DayRollup);
      if ((doc as DayRollup).imported !== undefined) imported.push({ day, imported: (doc as DayRollup).imported! });
    }
  }
  const read = new Map(days.flatMap((day) => (dayDocs.has(day) ? [[day, dayDocs.get(day)!] as const] : [])));
  return { parts: [...read.values(), ...longDocs], days: read, byDay, dayRollups, imported };
}

/** Several filters or a negated one are summed from the days' columnar copies and today's visitor-days, so their periods are capped at MAX_DAYS. */
export async function readPeriods(
  store: WindowStore,
  periods: ReadonlyArray<readonly string[]>,
  filters: readonly Filter[],
  from: SpansFrom,
  rules: RollupRules,
  bySpan = true,
): Promise<PeriodRead[] | WindowRefusal> {
  const one = cellFilter(filters);
  if (filters.length > 0 && (one === null || beforeCells(periods, from))) {
    if (periods.some((days) => days.length > MAX_DAYS))
      return { refused: `two or more filters, or one with !, are summed from the days' visitor-days: ask at most ${MAX_DAYS} days` };
    return Promise.all(periods.map(async (days) => scannedRead(days, await tallyDays(store, days, filters, rules))));
  }
  const plans = periods.map((days): Plan => (bySpan ? planOf(days, from) : { years: [], months: [], days: [...days] }));
  const edgeDays = [...new Set(plans.flatMap((plan) => plan.days))];
  if (one === null) {
    const spans = spansOf(plans, []);
    const [dayDocs, longDocs] = await Promise.all([
      store.rollupReader.onDays(edgeDays),
      spans.month.length + spans.year.length > 0 ? store.periodReader.inPartition(MONTHS_PK, spans) : Promise.resolve([]),
    ]);
    return plans.map((plan) => periodRead(plan.days, dayDocs, longOf(plan, longDocs)));
  }
  const docs = await store.periodReader.inPartition(
    cellPartition(one.dimension, one.value),
    spansOf(
      plans,
      edgeDays.filter((day) => day >= from.month),
    ),
  );
  const dayDocs = new Map(docs.filter((doc) => doc.span === 'day').map((doc) => [doc.at, doc] as const));
  return plans.map((plan) => periodRead(plan.days, dayDocs, longOf(plan, docs)));
}

/** Matching visitor-days summed are not the day's rollup: nothing of them is built or imported. */
function scannedRead(days: readonly string[], tally: ScanTally): PeriodRead {
  const { each, byDay, parts } = partsOf(tally, days);
  return {
    parts,
    days: each,
    byDay,
    dayRollups: new Map(),
    imported: [],
    fileBytes: tally.bytes,
    ...(tally.wholeFrom === null ? {} : { wholeFrom: tally.wholeFrom }),
  };
}

const none = (): Sketch => ({ sparse: {} });

/** Each day's counts as a day's part, capped as a recount of the day would be, with its sketches. */
export function partsOf(tally: DaysTally, days: readonly string[]) {
  const byDay = new Map<string, DayFigures>();
  const each = new Map<string, Summable>();
  for (const day of days) {
    const { partial, ...counts } = tally.counts.get(day) ?? { ...emptyCounts(), partial: false };
    capped(counts, PERIOD_TOP);
    const sketches = tally.sketches.get(day) ?? { people: none(), fresh: none(), back: none() };
    const part = {
      ...counts,
      people_sketch: sketches.people,
      new_sketch: sketches.fresh,
      returning_sketch: sketches.back,
      sketch_partial: partial,
    };
    each.set(day, part);
    byDay.set(day, { ...part, ...distinctOf(part) });
  }
  return { each, byDay, parts: [...each.values()] };
}
