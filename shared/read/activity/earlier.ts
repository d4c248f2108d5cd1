import type { Filter } from '../../core/rollup/filters';
import type { RollupRules } from '../../core/rollup/day-rollup';
import type { ActivityStore } from './availability';
import { readPeriods, type PeriodRead, type SpansFrom, type WindowStore } from './window';

/** All sites' days before `*` began are the first site's alone, read from its store. */
export interface EarlierStore {
  store: ActivityStore;
  from(): Promise<string>;
}

const NEVER = '9999-12-31';

/** Their days are disjoint, so counts add and the people's sketches merge: a person is counted once. */
const joined = (a: PeriodRead, b: PeriodRead): PeriodRead => ({
  complete: a.complete && b.complete,
  parts: [...a.parts, ...b.parts],
  days: new Map([...a.days, ...b.days]),
  byDay: new Map([...a.byDay, ...b.byDay]),
  dayRollups: new Map([...a.dayRollups, ...b.dayRollups]),
  imported: [...a.imported, ...b.imported],
});

/** Each store's days read under its own spans, so a read still costs the days asked, never the visitors. */
export async function readPeriodsAcross(
  store: WindowStore,
  earlier: EarlierStore | undefined,
  periods: ReadonlyArray<readonly string[]>,
  filters: readonly Filter[],
  from: SpansFrom,
  rules: RollupRules,
): ReturnType<typeof readPeriods> {
  if (earlier === undefined) return readPeriods(store, periods, filters, from, rules);
  const [began, state] = await Promise.all([earlier.from(), earlier.store.foldState.read()]);
  const firstFrom = { month: state?.doc.periods_from ?? NEVER, year: state?.doc.years_from ?? NEVER };
  const [before, after] = await Promise.all([
    readPeriods(
      earlier.store,
      periods.map((days) => days.filter((day) => day < began)),
      filters,
      firstFrom,
      rules,
    ),
    readPeriods(
      store,
      periods.map((days) => days.filter((day) => day >= began)),
      filters,
      from,
      rules,
    ),
  ]);
  if ('refused' in before) return before;
  if ('refused' in after) return after;
  return before.map((read, at) => joined(read, after[at]!));
}
