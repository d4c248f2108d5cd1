import { addDays } from '../../core/days';
import { boundedMap } from '../../core/bounded-map';
import {
  addCounts,
  capped,
  countsOfToken,
  emptyRollup,
  lacksSketch,
  returningOfDocs,
  type RollupRules,
} from '../../core/rollup/day-rollup';
import { type DayRollup, type RollupCounts } from '../../core/store/rollups';
import { cellPartition, matchesAll, type Filter } from '../../core/rollup/filters';
import { distinctOf, PERIOD_TOP, periodAt } from '../../core/rollup/periods';
import { MONTHS_PK, type DayFigures, type PeriodRollup } from '../../core/store/periods';
import { mergeKept, mergeSketches, type Sketch } from '../../core/sketch';
import type { VisitorDay } from '../../core/store/activity';
import type { ImportedTotals } from '../../core/store/imports';
import type { PeriodReader, Spans } from '../../core/store/periods';
import type { RollupReader, VisitorDayPages } from '../../core/store/rollups';
import { cellFilter } from '../../core/rollup/filters';
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
  /** False when a read of several filters ran out of pages before it read every day: the days left are zeros. */
  complete: boolean;
  parts: Summable[];
  days: Map<string, Summable>;
  byDay: Map<string, DayFigures>;
  /** Not those inside whole months. */
  dayRollups: Map<string, DayRollup>;
  imported: Array<{ day: string; imported: ImportedTotals }>;
}

export interface WindowStore {
  rollupReader: RollupReader;
  periodReader: PeriodReader;
  visitorDayPages: VisitorDayPages;
}

type WindowRefusal = { refused: string };

/** Visitor-days a page of a filtered read of visitor-days reads, and how many days are read at once. */
const PAGE = 500;
const DAYS_AT_ONCE = 4;

export interface Plan {
  years: string[];
  months: string[];
  days: string[];
}

/** A month or year that begins before its span's day is read otherwise. */
export interface SpansFrom {
  month: string;
  year: string;
}

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
  return { complete: true, parts: [...read.values(), ...longDocs], days: read, byDay, dayRollups, imported };
}

/** How many pages of visitor-days one read of several filters reads at most, across its days. */
export const SCAN_PAGES = 200;

interface ScanBudget {
  pages: number;
}

/** Summed uncapped, then capped once, as a recount of the day would be. */
async function matchingDay(
  pages: VisitorDayPages,
  day: string,
  filters: readonly Filter[],
  rules: RollupRules,
  budget: ScanBudget,
): Promise<DayRollup | null> {
  const rollup = emptyRollup(day, null);
  const sketches: Sketch[] = [];
  const fresh: Sketch[] = [];
  const back: Sketch[] = [];
  let after = '';
  for (;;) {
    if (budget.pages <= 0) return null;
    budget.pages -= 1;
    const page = await pages.byToken(day, after, PAGE);
    const tokens = new Map<string, VisitorDay[]>();
    for (const row of page) tokens.set(row.token, [...(tokens.get(row.token) ?? []), row]);
    const full = page.length >= PAGE;
    // The last token's rows may go on in the next page, unless it is the page's only token.
    if (full && tokens.size > 1) tokens.delete(page[page.length - 1]!.token);
    for (const docs of tokens.values()) {
      if (matchesAll(docs, filters, rules)) {
        addCounts(rollup, countsOfToken(docs, rules), 1);
        if (lacksSketch(docs)) rollup.sketch_partial = true;
      }
      // The people are those with a person's request on a matching visitor-day of any kind, as a day rollup's are.
      if (matchesAll(docs, filters, rules, true)) {
        for (const doc of docs) {
          if (doc.people_sketch) sketches.push({ sparse: doc.people_sketch });
          if (doc.new_sketch) fresh.push({ sparse: doc.new_sketch });
        }
        back.push(...returningOfDocs(docs).map((sparse) => ({ sparse })));
      }
    }
    if (sketches.length > PAGE) sketches.splice(0, sketches.length, mergeSketches(...sketches));
    if (fresh.length > PAGE) fresh.splice(0, fresh.length, mergeKept(...fresh));
    if (back.length > PAGE) back.splice(0, back.length, mergeKept(...back));
    if (!full) {
      capped(rollup, PERIOD_TOP);
      return {
        ...rollup,
        people_sketch: mergeSketches(...sketches),
        new_sketch: mergeKept(...fresh),
        returning_sketch: mergeKept(...back),
      };
    }
    after = [...tokens.keys()].pop()!;
  }
}

/** Several filters or a negated one read visitor-days a page at a time, so their periods are capped at MAX_DAYS. */
export async function readPeriods(
  store: WindowStore,
  periods: ReadonlyArray<readonly string[]>,
  filters: readonly Filter[],
  from: SpansFrom,
  rules: RollupRules,
  bySpan = true,
): Promise<PeriodRead[] | WindowRefusal> {
  const one = cellFilter(filters);
  if (filters.length > 0 && one === null) {
    if (periods.some((days) => days.length > MAX_DAYS))
      return { refused: `two or more filters, or one with !, read the period's visitor-days: ask at most ${MAX_DAYS} days` };
    const found = new Map<string, DayRollup>();
    const budget = { pages: SCAN_PAGES };
    let complete = true;
    // Newest first, so a read that runs out of pages has the days a site owner looks at first.
    await boundedMap([...new Set(periods.flat())].sort().reverse(), DAYS_AT_ONCE, async (day) => {
      const rollup = await matchingDay(store.visitorDayPages, day, filters, rules, budget);
      if (rollup === null) complete = false;
      else found.set(day, rollup);
    });
    return periods.map((days) => ({ ...withDays(days, found), complete }));
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

const withDays = (days: readonly string[], found: ReadonlyMap<string, DayRollup>): PeriodRead => {
  const read = periodRead(days, found, []);
  // Matching visitor-days summed are not the day's rollup: nothing of them is built or imported.
  return { ...read, dayRollups: new Map(), imported: [] };
};
