import { daysOrSet, zoneOfAnswer, type ReadZone } from '../core/sites/zones';
import { z } from 'zod';
import type { retentionQuerySchema } from '../contract/queries';
import { costOf, readActivity, type ActivityStore } from './activity/availability';
import { identityFrom } from '../core/store/person-moves';
import { addDays, daysEnding } from '../core/days';
import type { FunnelStep } from '../core/funnel';
import type { Goal } from '../core/events/events';
import type { Filter } from '../core/rollup/filters';
import { cohortsOfDays } from './activity/day-files';
import { firstKeptDay } from '../core/store/first-day';
import { ok, type Result } from '../core/result';
import type { Clock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import { estimate, SKETCH_ERROR } from '../core/sketch';
import { COHORT_WEEKS, cohortFiguresId, cohortsPk, weekOf, type CohortFigures, type CohortsStore } from '../core/store/cohorts';
import { cellFilter } from '../core/rollup/filters';
import { cellPartition } from '../core/rollup/filters';
import type { RetentionAnswer } from '../contract/retention';

export interface RetentionDeps extends ReadZone {
  store: ActivityStore & { cohorts: Pick<CohortsStore, 'since'> };
  clock: Clock;
  logger: Logger;
  funnel: readonly FunnelStep[];
  goals: readonly Goal[];
}

export function monthsEnding(month: string, count: number): string[] {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(Date.UTC(year, index - 1 - (count - 1 - i), 1));
    return at.toISOString().slice(0, 7);
  });
}

const byCohort = (figures: readonly CohortFigures[]) => new Map(figures.map((doc) => [doc.cohort, doc.people] as const));

/** A cell is some of its cohort's people, so an estimate past the cohort's size is capped at it. */
function rowsOf(
  figures: readonly CohortFigures[],
  sizes: readonly CohortFigures[],
  cohorts: readonly string[],
  laterOf: (cohort: string) => string[],
) {
  const [cells, whole] = [byCohort(figures), byCohort(sizes)];
  return cohorts.map((cohort) => {
    const people = cells.get(cohort) ?? {};
    const size = whole.get(cohort)?.[cohort] ?? 0;
    return {
      cohort,
      people: size,
      later: laterOf(cohort).map((at) => {
        const came = Math.min(size, people[at] ?? 0);
        return { at, people: came, share: size === 0 ? 0 : came / size };
      }),
    };
  });
}

/** Several filters or a `!`: each month cohort's people seen in each month, from the months' matching visitor-days. */
async function scannedCells(
  deps: RetentionDeps,
  months: readonly string[],
  today: string,
  filters: readonly Filter[],
): Promise<CohortFigures[]> {
  const first = `${months[0]!}-01`;
  const kept = await firstKeptDay(deps.store);
  // Only the days that can hold data are read: none before the first day kept.
  const days = daysEnding(today, Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000) + 1).filter(
    (day) => kept !== null && day >= kept,
  );
  const cells = await cohortsOfDays(deps.store, days, filters, { steps: deps.funnel, goals: deps.goals });
  return months.map((cohort) => ({
    id: cohortFiguresId('month', cohort),
    pk: 'scanned',
    kind: 'cohort-figures',
    span: 'month',
    cohort,
    people: Object.fromEntries(months.filter((at) => at >= cohort).map((at) => [at, estimate(cells.get(`${cohort}|${at}`))])),
  }));
}

/** One query, two with one filter, so its cost grows with the months asked, never the people; several filters read the months' days. */
export async function retentionCard(query: z.infer<typeof retentionQuerySchema>, deps: RetentionDeps): Promise<Result<RetentionAnswer>> {
  const zones = await daysOrSet(deps);
  const today = zones.dayOf(deps.clock.now());
  const months = monthsEnding(today.slice(0, 7), query.months);
  const weeks = Array.from({ length: COHORT_WEEKS }, (_, i) => addDays(weekOf(today), -7 * (COHORT_WEEKS - 1 - i)));
  const filter = cellFilter(query.filter);
  const scanned = query.filter.length > 0 && filter === null;
  const since = (pk: string) => deps.store.cohorts.since(pk, months[0]!, weeks[0]!);
  // A filtered read's cohorts are the whole cohorts (their own partition), its cells the filter value's.
  const { value, availability } = await readActivity(deps.store, deps.logger, () =>
    Promise.all([
      since(cohortsPk()),
      scanned
        ? scannedCells(deps, months, today, query.filter)
        : filter === null
          ? null
          : since(cellPartition(filter.dimension, filter.value)),
      identityFrom(deps.store.migrations),
    ]),
  );
  const base = { months: months.length, from: months[0]!, to: months[months.length - 1]!, error: SKETCH_ERROR };
  if (value === null) return ok({ ...base, cohorts: null, weeks: null, ...zoneOfAnswer(zones), availability, cost: costOf(deps.store) });
  const [whole, cells, identity] = [value[0], value[1] ?? value[0], value[2]];
  // Its months or weeks from before the switch of person ids to after it.
  const first = [weeks[0]!, `${months[0]!}-01`].sort()[0]!;
  const spans = identity !== null && identity > first && identity <= today;
  const ofSpan = (figures: readonly CohortFigures[], span: CohortFigures['span']) => figures.filter((cell) => cell.span === span);
  const rows = (span: CohortFigures['span'], cohorts: readonly string[]) =>
    rowsOf(ofSpan(cells, span), ofSpan(whole, span), cohorts, (cohort) => cohorts.filter((at) => at >= cohort));
  // Week cohorts are kept for the whole site only.
  const [monthRows, weekRows] = [rows('month', months), query.filter.length === 0 ? rows('week', weeks) : null];
  return ok({
    ...base,
    cohorts: monthRows.map(({ cohort, people, later }) => ({
      cohort,
      people,
      months: later.map(({ at, ...rest }) => ({ month: at, ...rest })),
    })),
    weeks:
      weekRows?.map(({ cohort, people, later }) => ({
        cohort,
        people,
        weeks: later.map(({ at, ...rest }) => ({ week: at, ...rest })),
      })) ?? null,
    ...(spans ? { identity_from: identity } : {}),
    ...zoneOfAnswer(zones),
    availability,
    cost: costOf(deps.store),
  });
}
