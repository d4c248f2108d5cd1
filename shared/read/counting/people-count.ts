import type { Clock } from '../../core/ports/clock';
import { daysOrSet, zoneOfAnswer, type ReadZone } from '../../core/sites/zones';
import type { Versioned } from '../../core/store/documents';
import type { VisitorsSummaryReader, PeopleFigures } from '../../core/store/summary';
import type { VisitsSummary } from '../../core/store/visits';
import type { FoldState } from '../../core/store/fold';
import { daysEnding, earlierDay, monthStart } from '../../core/days';

export const DAYS = 30;

export interface PeopleOnDay {
  day: string;
  people: number;
}

export interface VisitsOnDay {
  day: string;
  visits: number;
}

export interface KeptVisitsRun {
  all_time: number;
  from: string;
  by_day: VisitsOnDay[];
}

/** A store that cannot be read gives null figures, never zeros. */
export interface PeopleCount {
  people_all_time: number | null;
  people_new_today: number | null;
  people_new_month: number | null;
  scanners_left_out: number | null;
  counted_from: string | null;
  people_new_by_day: PeopleOnDay[] | null;
  source: string;
  visits: KeptVisitsRun | null;
  /** Since when the fold has not brought the count up to date (ISO 8601 UTC); null when it is. */
  behind_since: string | null;
  time_zone: string;
  time_zone_from?: string;
}

export interface Pulse {
  people_all_time: number | null;
  people_new_by_day: PeopleOnDay[] | null;
  counted_from: string | null;
  visits_all_time: number | null;
  visits_from: string | null;
  visits_by_day: VisitsOnDay[] | null;
  source: string;
  behind_since: string | null;
  time_zone: string;
  time_zone_from?: string;
}

export interface PeopleCountDeps extends ReadZone {
  visitorsSummary: VisitorsSummaryReader;
  visits: { read(): Promise<Versioned<VisitsSummary> | null> };
  foldState: { read(): Promise<Versioned<Pick<FoldState, 'behind'>> | null> };
  clock: Clock;
  source: string;
}

/** The error's code or name, never its message, which may be long. */
export function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = 'code' in error ? error.code : undefined;
    if (typeof code === 'string' || typeof code === 'number') return String(code);
    if (error instanceof Error) return error.name;
  }
  return 'unknown error';
}

/** Two point reads whatever the number of visitors, and it never throws; its days are the site's local days. */
export async function readPeopleCount(deps: PeopleCountDeps): Promise<PeopleCount> {
  const zones = await daysOrSet(deps);
  return { ...(await countOn(zones.dayOf(deps.clock.now()), deps)), ...zoneOfAnswer(zones) };
}

async function countOn(today: string, deps: PeopleCountDeps): Promise<Omit<PeopleCount, 'time_zone'>> {
  const days = daysEnding(today, DAYS);
  const [people, visits, state] = await Promise.allSettled([
    deps.visitorsSummary.peopleFrom(earlierDay(monthStart(today), days[0]!)),
    deps.visits.read(),
    deps.foldState.read(),
  ]);
  const visitsRun = visits.status === 'fulfilled' ? keptVisits(visits.value?.doc ?? null, days) : null;
  const visitsNote = visits.status === 'rejected' ? `; visits unread (${reasonOf(visits.reason)})` : '';
  const behind = state.status === 'fulfilled' ? (state.value?.doc.behind ?? null) : null;
  const behindNote = behind === null ? '' : `; behind since ${behind.since}: the recount timer has more to count`;
  if (people.status === 'rejected') return unread(`unread: the store did not answer (${reasonOf(people.reason)})`, visitsRun, behind);
  // Nothing counted while the timer is behind (its first run unfinished, too) is a count not made yet, not a true zero.
  if (behind !== null && people.value.people_all_time === 0 && people.value.counted_from === null)
    return unread(`not counted yet: the recount timer is behind since ${behind.since}`, visitsRun, behind);
  return {
    ...peopleFigures(people.value, today, days),
    source: `${deps.source}${visitsNote}${behindNote}`,
    visits: visitsRun,
    behind_since: behind?.since ?? null,
  };
}

function unread(source: string, visits: KeptVisitsRun | null, behind: { since: string } | null): Omit<PeopleCount, 'time_zone'> {
  return {
    people_all_time: null,
    people_new_today: null,
    people_new_month: null,
    scanners_left_out: null,
    counted_from: null,
    people_new_by_day: null,
    source,
    visits,
    behind_since: behind?.since ?? null,
  };
}

function peopleFigures(figures: PeopleFigures, today: string, days: readonly string[]) {
  const on = (day: string) => figures.people_new_by_day[day] ?? 0;
  const month = monthStart(today);
  const monthCount = Object.entries(figures.people_new_by_day)
    .filter(([day]) => day >= month && day <= today)
    .reduce((sum, [, people]) => sum + people, 0);
  return {
    people_all_time: figures.people_all_time,
    people_new_today: on(today),
    people_new_month: monthCount,
    scanners_left_out: figures.scanners_left_out,
    counted_from: figures.counted_from,
    people_new_by_day: days.map((day) => ({ day, people: on(day) })),
  };
}

function keptVisits(summary: VisitsSummary | null, days: readonly string[]): KeptVisitsRun | null {
  if (summary === null || summary.from === null) return null;
  return { all_time: summary.all_time, from: summary.from, by_day: days.map((day) => ({ day, visits: summary.by_day[day] ?? 0 })) };
}

/** Mapped from the one query's answer, so the two cannot disagree. */
export function pulseOf(count: PeopleCount): Pulse {
  return {
    people_all_time: count.people_all_time,
    people_new_by_day: count.people_new_by_day,
    counted_from: count.counted_from,
    visits_all_time: count.visits?.all_time ?? null,
    visits_from: count.visits?.from ?? null,
    visits_by_day: count.visits?.by_day ?? null,
    source: count.source,
    behind_since: count.behind_since,
    time_zone: count.time_zone,
    ...(count.time_zone_from === undefined ? {} : { time_zone_from: count.time_zone_from }),
  };
}
