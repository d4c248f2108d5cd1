import { z } from 'zod';
import { costOf, readActivity, type ActivityStore } from './activity/availability';
import { addDays } from '../core/days';
import { ok, type Result } from '../core/result';
import { utcDay } from '../core/identity/tokens';
import type { Clock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import { SKETCH_ERROR } from '../core/rollup/sketch';
import { COHORT_WEEKS, weekOf, type CohortFigures, type CohortsStore } from '../core/store/cohorts';
import { siteQuerySchema } from '../core/sites/sites';

/** The most months a read asks for, and how many it asks for when it does not say. */
export const MOST_MONTHS = 36;
export const DEFAULT_MONTHS = 12;

/** `months` (1–36, 12 when absent); `filter` is refused by name, since the cells are kept for the whole site only. */
export const retentionQuerySchema = z.object({
  site: siteQuerySchema,
  months: z.coerce.number().int().min(1).max(MOST_MONTHS).default(DEFAULT_MONTHS),
  filter: z.array(z.string()).max(0, { message: 'retention is kept for the whole site only: it takes no filter' }).optional(),
});

/** What GET /api/admin/retention reads: the retention cells and the clock. */
export interface RetentionDeps {
  store: ActivityStore & { cohorts: Pick<CohortsStore, 'since'> };
  clock: Clock;
  logger: Logger;
}

/** The `count` months ending with `month`, oldest first. */
export function monthsEnding(month: string, count: number): string[] {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(Date.UTC(year, index - 1 - (count - 1 - i), 1));
    return at.toISOString().slice(0, 7);
  });
}

/** One cohort's row: its people (those who came in its own month or week), and each later one's people and share. */
function rowsOf(figures: readonly CohortFigures[], cohorts: readonly string[], laterOf: (cohort: string) => string[]) {
  const byCohort = new Map(figures.map((doc) => [doc.cohort, doc.people] as const));
  return cohorts.map((cohort) => {
    const people = byCohort.get(cohort) ?? {};
    const size = people[cohort] ?? 0;
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

/**
 * GET /api/admin/retention?months=N: for each of the last N months (this one included), the people first counted in
 * it and, for it and each later month, how many of them came in that month, each once; and the same for the last 12
 * weeks. One query in the cells' partition for each cohort's figures (a few numbers, never a sketch): its cost grows with
 * the months asked, never the people.
 */
export async function retentionCard(query: z.infer<typeof retentionQuerySchema>, deps: RetentionDeps): Promise<Result<object>> {
  const today = utcDay(deps.clock.now());
  const months = monthsEnding(today.slice(0, 7), query.months);
  const weeks = Array.from({ length: COHORT_WEEKS }, (_, i) => addDays(weekOf(today), -7 * (COHORT_WEEKS - 1 - i)));
  const { value, availability } = await readActivity(deps.store, deps.logger, () => deps.store.cohorts.since(months[0]!, weeks[0]!));
  const base = { months: months.length, from: months[0]!, to: months[months.length - 1]!, error: SKETCH_ERROR };
  if (value === null) return ok({ ...base, cohorts: null, weeks: null, availability, cost: costOf(deps.store) });
  const ofSpan = (span: CohortFigures['span']) => value.filter((cell) => cell.span === span);
  const monthRows = rowsOf(ofSpan('month'), months, (cohort) => months.filter((month) => month >= cohort));
  const weekRows = rowsOf(ofSpan('week'), weeks, (cohort) => weeks.filter((week) => week >= cohort));
  return ok({
    ...base,
    cohorts: monthRows.map(({ cohort, people, later }) => ({
      cohort,
      people,
      months: later.map(({ at, ...rest }) => ({ month: at, ...rest })),
    })),
    weeks: weekRows.map(({ cohort, people, later }) => ({
      cohort,
      people,
      weeks: later.map(({ at, ...rest }) => ({ week: at, ...rest })),
    })),
    availability,
    cost: costOf(deps.store),
  });
}
