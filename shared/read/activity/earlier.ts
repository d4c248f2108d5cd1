import type { Filter } from '../../core/rollup/filters';
import type { RollupRules } from '../../core/rollup/day-rollup';
import type { ByWho } from '../../core/store/rollups';
import type { ActivityStore } from './availability';
import { readPeriods, type PeriodRead, type SpansFrom, type WindowStore } from './window';
import type { DayFigures } from '../../core/store/periods';

/** The first site's store, whose days up to the one all sites began are all sites' too. */
export interface EarlierStore {
  store: ActivityStore;
  from(): Promise<string>;
}

const NEVER = '9999-12-31';

type Numbers = Record<string, number>;

const added = (a: Numbers, b: Numbers): Numbers =>
  Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((key) => [key, (a[key] ?? 0) + (b[key] ?? 0)]));

const largerMaybe = (a: number | undefined, b: number | undefined) =>
  a === undefined && b === undefined ? undefined : Math.max(a ?? 0, b ?? 0);

/** A person may be on both, so their visitor-days are the larger; the other kinds add. */
function keptPeople(a: ByWho, b: ByWho): ByWho {
  const people = Math.max(a.people, b.people);
  return { people, scanners: a.scanners + b.scanners, self: a.self + b.self, total: a.total + b.total - (a.people + b.people - people) };
}

/** A day both hold sums its figures, but its people are the larger, which is at least each's and at most the sum. */
function addedDay(a: DayFigures, b: DayFigures): DayFigures {
  const figures = {
    visitor_days: keptPeople(a.visitor_days, b.visitor_days),
    left_out: added(a.left_out, b.left_out) as DayFigures['left_out'],
    page_loads: a.page_loads + b.page_loads,
    people_each: largerMaybe(a.people_each, b.people_each),
    people_new: largerMaybe(a.people_new, b.people_new),
    returning: largerMaybe(a.returning, b.returning),
  };
  return Object.fromEntries(Object.entries(figures).filter(([, value]) => value !== undefined)) as unknown as DayFigures;
}

function byDayOf(a: ReadonlyMap<string, DayFigures>, b: ReadonlyMap<string, DayFigures>): Map<string, DayFigures> {
  const days = new Map(a);
  for (const [day, figures] of b) days.set(day, days.has(day) ? addedDay(days.get(day)!, figures) : figures);
  return days;
}

/** The later day either is whole from, when either left days out. */
function wholeFromOf(a: string | undefined, b: string | undefined): { wholeFrom?: string } {
  const later = a === undefined || (b !== undefined && b > a) ? b : a;
  return later === undefined ? {} : { wholeFrom: later };
}

/** The parts are summed and their people's sketches merged, so a person on both is counted once in the period. */
const joined = (a: PeriodRead, b: PeriodRead): PeriodRead => ({
  parts: [...a.parts, ...b.parts],
  days: new Map([...b.days, ...a.days]),
  byDay: byDayOf(a.byDay, b.byDay),
  dayRollups: new Map([...b.dayRollups, ...a.dayRollups]),
  imported: [...a.imported, ...b.imported],
  ...wholeFromOf(a.wholeFrom, b.wholeFrom),
  ...(a.fileBytes === undefined && b.fileBytes === undefined ? {} : { fileBytes: (a.fileBytes ?? 0) + (b.fileBytes ?? 0) }),
});

/**
 * `*` holds every day it was given (from `began`, and old days imported for another site since); the first site's days
 * up to `began` are read beside them, each store under its own spans, so a read still costs the days asked.
 */
export async function readPeriodsAcross(
  store: WindowStore,
  earlier: EarlierStore | undefined,
  periods: ReadonlyArray<readonly string[]>,
  filters: readonly Filter[],
  from: SpansFrom,
  rules: RollupRules,
  bySpan = true,
): ReturnType<typeof readPeriods> {
  if (earlier === undefined) return readPeriods(store, periods, filters, from, rules, bySpan);
  const [began, state] = await Promise.all([earlier.from(), earlier.store.foldState.read()]);
  const firstFrom = { month: state?.doc.periods_from ?? NEVER, year: state?.doc.years_from ?? NEVER };
  const [before, after] = await Promise.all([
    readPeriods(
      earlier.store,
      periods.map((days) => days.filter((day) => day <= began)),
      filters,
      firstFrom,
      rules,
      bySpan,
    ),
    readPeriods(store, periods, filters, from, rules, bySpan),
  ]);
  if ('refused' in before) return before;
  if ('refused' in after) return after;
  return before.map((read, at) => joined(read, after[at]!));
}
