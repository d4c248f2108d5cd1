import { addDays, daysEnding, earlierDay } from '../../core/days';
import { zoneOfAnswer, type SiteDays } from '../../core/sites/zones';
import type { Zone } from '../../core/zone';
import { byHourOf, HOURLY_DAYS } from './local-hours';
import { badRequest, fail, ok, type Result } from '../../core/result';
import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import { costOf, readActivity, type ActivityStore } from './availability';
import { byDay, byMonth } from './by-day';
import { firstDayOf, type VisitsRead } from '../../core/store/first-day';
import { identityFrom } from '../../core/store/person-moves';
import { funnelStepKey, type Funnel, type FunnelStep } from '../../core/funnel';
import { funnelOf } from './funnel';
import { hoursOf, lastLocalHours } from './hours';
import { timeFigures } from './time-on-site';
import { entryPagesOf, eventsOf, exitPagesOf, pagesOf, periodOf, referrersOf, type PeriodCounts } from './period';
import type { Goal } from '../../core/events/events';
import { MAX_DAYS, type CardQuery, type Period } from '../../contract/queries';
import type { PeriodRead } from './window';
import { readPeriodsAcross, type EarlierStore } from './earlier';
import { beforeCells, type SpansFrom } from './window';
import { cellFilter } from '../../core/rollup/filters';
import type { Filter } from '../../core/rollup/filters';
import { rollupStatus } from './rollup-status';
import { sourcesOf } from './sources';
import { campaignsOf, countriesOf, devicesOf } from './audience';
import { importedOf } from './imported';
import type { GoalSummary } from '../../core/store/goals';
import { firstTouchOf } from './first-touch';
import type { PeriodReportAnswer } from '../../contract/activity';
import type { ConfigAnnotation, ConfigSegment } from '../../core/store/config';
import { annotationsWithin, withSegments } from './configured';

export interface ActivityDeps {
  store: ActivityStore;
  clock: Clock;
  logger: Logger;
  funnel: readonly FunnelStep[];
  goals: readonly Goal[];
  /** The configuration's funnels, each with the migration that counts it back. */
  funnels?: ReadonlyArray<Funnel & { back?: string; added?: string }>;
  /** Saved in the configuration: `filter=segment:<name>` reads their filters. */
  segments?: readonly ConfigSegment[];
  /** Notes on days, answered with any period that holds one. */
  annotations?: readonly ConfigAnnotation[];
  /** All sites' only: the first site's store for the days before `*` began. */
  earlier?: EarlierStore;
  /** The zone set, named even when the store cannot answer. */
  zone: Zone;
  /** The site's days: today is the local today. */
  days: () => Promise<SiteDays>;
}

const spanOf = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** Both included, oldest first. */
export const daysFrom = (from: string, to: string) => daysEnding(to, spanOf(from, to));

/** The period answered; for a range past its bound, also the range as asked. */
interface Window {
  from: string;
  to: string;
  /** No day before it holds data. */
  floor: string;
  clamped?: { asked_from: string; asked_to: string };
}

const within = (day: string, floor: string, today: string) => (day < floor ? floor : day > today ? today : day);

/** A range over MAX_DAYS is clamped to the days that can hold data: the first counted or imported day to today. */
async function windowOf(period: Period, today: string, store: ActivityStore, visits: VisitsRead, scanned: boolean): Promise<Window> {
  // A day's rollup read of a day before the first costs no more than knowing the first; a day of rows read costs a query.
  if (period.kind === 'days' && !scanned) return { from: addDays(today, 1 - period.days), to: today, floor: '0000-00-00' };
  const first = firstDayOf(await store.visitorsSummary.read(), visits);
  const floor = first === null || first > today ? today : first;
  if (period.kind === 'days') return { from: addDays(today, 1 - period.days), to: today, floor };
  if (period.kind === 'all') return { from: floor, to: today, floor };
  const [from, to] =
    spanOf(period.from, period.to) > MAX_DAYS
      ? [within(period.from, floor, today), within(period.to, floor, today)]
      : [period.from, period.to];
  if (from === period.from && to === period.to) return { from, to, floor };
  return { from, to, floor, clamped: { asked_from: period.from, asked_to: period.to } };
}

/** Null, never a zero that would read as true. */
const UNREAD = {
  days: null,
  from: null,
  to: null,
  by_day: null,
  hours: null,
  sources: null,
  path: null,
  countries: null,
  devices: null,
  campaigns: null,
  people_in_period: null,
  headline: null,
  previous: null,
  pages: null,
  entry_pages: null,
  exit_pages: null,
  referrers: null,
  goals: null,
  events: null,
  rollups: null,
} satisfies Partial<Record<keyof PeriodReportAnswer, null>>;

/** A point read each, whatever its people. */
async function goalSummaries(store: ActivityStore, goals: readonly Goal[]): Promise<Map<string, GoalSummary | null>> {
  const reads = await Promise.all(
    goals.map(async (goal) => [goal.name, (await store.goals.summaries.read(goal.name))?.doc ?? null] as const),
  );
  return new Map(reads);
}

/** A goal or funnel still counted back over the days kept: the first day its figures hold from, null before its first day is. */
async function countingBack(
  store: ActivityStore,
  goals: ReadonlyArray<{ name: string; back?: string }>,
): Promise<Map<string, string | null>> {
  const reads = await Promise.all(
    goals.map(async (goal) => {
      if (goal.back === undefined) return [];
      const read = await store.migrations.read(goal.back);
      if (read?.doc.done_at != null) return [];
      const place = read?.doc.position == null ? null : (JSON.parse(read.doc.position) as { day: string }).day;
      return [[goal.name, place === null ? null : addDays(place, 1)] as const];
    }),
  );
  return new Map(reads.flat());
}

export function goalsOf(
  goals: readonly Goal[],
  period: PeriodCounts,
  summaries: ReadonlyMap<string, GoalSummary | null>,
  back: ReadonlyMap<string, string | null> = new Map(),
) {
  return goals.map((goal) => {
    const conversions = period.goals[goal.name] ?? 0;
    const visitorDays = period.visitor_days.people;
    const summary = summaries.get(goal.name) ?? null;
    return {
      goal: goal.name,
      conversions,
      rate: visitorDays === 0 ? 0 : conversions / visitorDays,
      people_all_time: summary?.people_all_time ?? 0,
      first_touch: firstTouchOf(summary),
      ...(back.has(goal.name) ? { holds_from: back.get(goal.name)! } : {}),
    };
  });
}

/** The day after the period's last visit counted by set: from it every visit's steps are in order. */
function inOrder(period: PeriodCounts) {
  const bySet = Object.keys(period.funnel_by_set ?? {}).filter((day) => (period.funnel_by_set![day] ?? 0) > 0);
  return bySet.length === 0 ? { in_order: true } : { in_order: false, in_order_from: addDays(bySet.sort().at(-1)!, 1) };
}

/** Each funnel's steps: the visits that reached it and the ones before it, and how many of the step before's did not. */
function funnelsOf(funnels: ReadonlyArray<Funnel & { back?: string }>, period: PeriodCounts, back: ReadonlyMap<string, string | null>) {
  const order = inOrder(period);
  return funnels.map((funnel) => {
    const visits = funnel.steps.map((_, at) => period.funnel_steps?.[funnelStepKey(funnel.name, at + 1)] ?? 0);
    return {
      funnel: funnel.name,
      ...order,
      steps: funnel.steps.map((step, at) => ({
        name: step.name,
        visits: visits[at]!,
        drop_off: at === 0 ? 0 : visits[at - 1]! - visits[at]!,
      })),
      ...(back.has(funnel.name) ? { holds_from: back.get(funnel.name)! } : {}),
    };
  });
}

/** Filtered, each matching people's visitor-day is one visit. */
function headlineOf(
  counts: PeriodCounts,
  days: readonly string[],
  newPeople: Record<string, number>,
  visits: Record<string, number>,
  goals: readonly Goal[],
  filtered: boolean,
) {
  const sum = (byDay: Record<string, number>) => days.reduce((total, day) => total + (byDay[day] ?? 0), 0);
  const conversions = goals.reduce((total, goal) => total + (counts.goals[goal.name] ?? 0), 0);
  const { estimate } = counts.people;
  // New people unfiltered are the visitor records' exact count; filtered, the matching days' sketch of new people.
  const fresh = filtered ? Math.min(estimate, counts.new_people) : sum(newPeople);
  // No clamp: a filter's registers are a subset of the site's, written after them, and no estimate falls as they rise.
  const returning = counts.returning;
  const time = { ...timeFigures(counts, counts.timed), ...(counts.timed.from === null ? {} : { time_on_site_from: counts.timed.from }) };
  if (filtered)
    return {
      people: estimate,
      people_new: fresh,
      returning,
      visits: counts.visitor_days.people,
      page_loads: counts.page_loads,
      conversions,
      ...time,
    };
  return { people: estimate, people_new: fresh, returning, visits: sum(visits), page_loads: counts.page_loads, conversions, ...time };
}

/** The last day a goal or funnel counted back was added, before which a filter's cells lack it. */
function cellsFrom(deps: Pick<ActivityDeps, 'goals' | 'funnels'>): { cells?: string } {
  const added = [...deps.goals, ...(deps.funnels ?? [])].flatMap((one) =>
    one.back === undefined || one.added === undefined ? [] : [one.added],
  );
  return added.length === 0 ? {} : { cells: added.sort().at(-1)! };
}

/** One filter's cells are kept from `periodsFrom`; several filters are summed from the visitor-days, whole. */
function filteredWhole(filters: readonly Filter[], from: SpansFrom, periods: ReadonlyArray<readonly string[]>): boolean {
  const periodsFrom = from.month;
  return cellFilter(filters) === null || beforeCells(periods, from) || periods.every((days) => (days[0] ?? periodsFrom) >= periodsFrom);
}

/** Several filters while the day files migration runs: the latest day from which every period read is whole. */
const wholeFromOf = (reads: ReadonlyArray<PeriodRead | undefined>): string | undefined =>
  reads.reduce<string | undefined>(
    (last, read) => (read?.wholeFrom !== undefined && (last === undefined || read.wholeFrom > last) ? read.wholeFrom : last),
    undefined,
  );

/** Every figure comes from the days' rollups and the last hours, so a read costs the days asked, never the visitors. */
export async function periodReport(query: CardQuery, deps: ActivityDeps): Promise<Result<PeriodReportAnswer>> {
  const { period: asked } = query;
  const filters = withSegments(query.filters, query.segments ?? [], deps.segments ?? []);
  if (typeof filters === 'string') return fail(badRequest([{ path: 'filter', message: filters }]));
  const now = deps.clock.now();
  const { store } = deps;
  const funnels = deps.funnels ?? [];
  const rules = { steps: deps.funnel, goals: deps.goals, funnels };
  const { value, availability } = await readActivity(store, deps.logger, async () => {
    // The visits summary is read once: for the first day that can hold data, and for the headline's visits.
    const [visits, state, zones] = await Promise.all([store.visits.read(), store.foldState.read(), deps.days()]);
    const today = zones.dayOf(now);
    const window = await windowOf(asked, today, store, visits, filters.length > 0 && cellFilter(filters) === null);
    const days = daysFrom(window.from, window.to);
    // Every day asked is answered; only those that can hold data are read.
    const readable = (list: readonly string[]) => list.filter((day) => day >= window.floor && day <= today);
    const before = daysEnding(addDays(window.from, -1), days.length);
    const periodsFrom = state?.doc.periods_from ?? '9999-12-31';
    const spansFrom = { month: periodsFrom, year: state?.doc.years_from ?? '9999-12-31', ...cellsFrom(deps) };
    const firstHourDay = earlierDay(lastLocalHours(now, zones)[0]!.day, addDays(today, -1));
    const hourly = days.length <= HOURLY_DAYS ? [...before, ...days] : [];
    const [reads, hours, people, goals, identity, back, funnelsBack] = await Promise.all([
      readPeriodsAcross(store, deps.earlier, asked.kind === 'all' ? [days] : [readable(days), readable(before)], filters, spansFrom, rules),
      store.activityReader.hoursOn(daysFrom(earlierDay(hourly[0] ?? firstHourDay, firstHourDay), addDays(today, 1))),
      store.visitorsSummary.peopleFrom(before[0]!),
      goalSummaries(store, deps.goals),
      identityFrom(store.migrations),
      countingBack(store, deps.goals),
      countingBack(store, funnels),
    ]);
    const visitsByDay = visits?.doc.by_day ?? {};
    return {
      window,
      days,
      before,
      reads,
      hours,
      state: state?.doc ?? null,
      periodsFrom,
      spansFrom,
      people,
      visits: visitsByDay,
      goals,
      identity,
      zones,
      back,
      funnelsBack,
    };
  });
  if (value === null) return ok({ ...UNREAD, filters, time_zone: deps.zone.name, availability, cost: costOf(store) });
  const { window, days, before, reads, people, visits } = value;
  if ('refused' in reads) return fail(badRequest([{ path: 'filter', message: reads.refused }]));
  const [current, earlier] = reads as [PeriodRead, PeriodRead | undefined];
  const filtered = filters.length > 0;
  const exactNew = filtered ? undefined : people.people_new_by_day;
  const period = periodOf(current.parts, rules);
  const headline = headlineOf(period, days, people.people_new_by_day, visits, deps.goals, filtered);
  const long = days.length > MAX_DAYS;
  // Hours are kept unfiltered, so a filtered read has none.
  const hourly = days.length <= HOURLY_DAYS && !filtered;
  const hoursOfDays = (list: readonly string[]) => (hourly ? { by_hour: byHourOf(value.hours, list, value.zones) } : {});
  // The dashboard charts the period before as a faint second series.
  const previous =
    earlier === undefined
      ? null
      : {
          from: before[0]!,
          to: before[before.length - 1]!,
          ...headlineOf(periodOf(earlier.parts, rules), before, people.people_new_by_day, visits, deps.goals, filtered),
          ...hoursOfDays(before),
          ...(long ? { by_month: byMonth(earlier.byDay, before) } : { by_day: byDay(earlier.byDay, before, exactNew) }),
        };
  const imported = filtered ? null : importedOf(current.imported);
  const status = rollupStatus(
    value.state,
    current.dayRollups,
    days.filter((day) => !current.byDay.has(day) || current.dayRollups.has(day)),
  );
  const notes = annotationsWithin(deps.annotations ?? [], window.from, window.to);
  const wholeFrom = wholeFromOf([current, earlier]);
  return ok({
    days: days.length,
    from: window.from,
    to: window.to,
    filters,
    ...(query.segments === undefined ? {} : { segments: query.segments }),
    ...(notes.length === 0 ? {} : { annotations: notes }),
    by_day: long ? null : byDay(current.byDay, days, exactNew),
    ...(long ? { by_month: byMonth(current.byDay, days) } : {}),
    hours: hoursOf(value.hours, now, value.zones),
    ...hoursOfDays(days),
    sources: sourcesOf(period),
    path: funnelOf(period, deps.funnel),
    countries: countriesOf(period),
    devices: devicesOf(period),
    campaigns: campaignsOf(period),
    people_in_period: period.people,
    headline,
    previous,
    pages: pagesOf(period),
    entry_pages: entryPagesOf(period),
    exit_pages: exitPagesOf(period),
    referrers: referrersOf(period),
    goals: goalsOf(deps.goals, period, value.goals, value.back),
    ...(funnels.length === 0 ? {} : { funnels: funnelsOf(funnels, period, value.funnelsBack) }),
    events: eventsOf(period),
    rollups: filtered
      ? {
          ...status,
          complete:
            status.complete &&
            wholeFrom === undefined &&
            filteredWhole(filters, value.spansFrom, earlier === undefined ? [days] : [days, before]),
          filters_from: wholeFrom ?? value.periodsFrom,
        }
      : status,
    // Only a period with days imported from another tool has it, apart from every figure above.
    ...(imported === null ? {} : { imported }),
    ...(window.clamped === undefined ? {} : { clamped: window.clamped }),
    // A period from before the switch of person ids to after it.
    ...(value.identity !== null && window.from < value.identity && value.identity <= window.to ? { identity_from: value.identity } : {}),
    ...zoneOfAnswer(value.zones),
    availability,
    cost: {
      ...costOf(store),
      ...(current.fileBytes === undefined ? {} : { day_file_bytes: current.fileBytes + (earlier?.fileBytes ?? 0) }),
    },
  });
}
