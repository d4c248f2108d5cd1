import { z } from 'zod';
import { costOf, readActivity, type ActivityStore } from './activity/availability';
import { addDays } from '../core/days';
import { ok, type Result } from '../core/result';
import { utcDay } from '../core/identity/tokens';
import type { Clock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import { SKETCH_ERROR } from '../core/rollup/sketch';
import { COHORT_WEEKS, cohortsPk, weekOf, type CohortFigures, type CohortsStore } from '../core/store/cohorts';
import { cellFilter, filtersSchema } from './activity/filters';
import { cellPartition } from '../core/rollup/filters';
import { siteQuerySchema } from '../core/sites/sites';

/** The most months a read asks for, and how many it asks for when it does not say. */
export const MOST_MONTHS = 36;
export const DEFAULT_MONTHS = 12;

/** Why a read with more than one filter, or a negated one, is refused: the cells are kept for one value each. */
export const ONE_FILTER = 'retention takes one filter, dimension:value (not negated)';

/** `months` (1–36, 12 when absent); `filter`, at most one and not negated (its value's cells answer it). */
export const retentionQuerySchema = z.object({
  site: siteQuerySchema,
  months: z.coerce.number().int().min(1).max(MOST_MONTHS).default(DEFAULT_MONTHS),
  filter: filtersSchema.refine((filters) => filters.length === 0 || cellFilter(filters) !== null, { message: ONE_FILTER }),
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

/** Each cohort's figures by its month or week. */
const byCohort = (figures: readonly CohortFigures[]) => new Map(figures.map((doc) => [doc.cohort, doc.people] as const));

/**
 * One cohort's row: its people (those who came in its own month or week, as `sizes` holds them), and each later one's
 * people (as `figures` holds them: the same, or a filter value's) and share. A cell is some of its cohort's people, so
 * an estimate past the cohort's size is the cohort's size.
 */
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

/**
 * GET /api/admin/retention?months=N: for each of the last N months (this one included), the people first counted in
 * it and, for it and each later month, how many of them came in that month, each once; and the same for the last 12
 * weeks. With a filter, each month's cell counts the cohort's people who came then on a visitor-day holding its value
 * (weeks are kept for the whole site only: null). One query in the site's retention partition for each cohort's
 * figures (a few numbers, never a sketch), and with a filter one more in the value's cells partition: its cost grows
 * with the months asked, never the people.
 */
export async function retentionCard(query: z.infer<typeof retentionQuerySchema>, deps: RetentionDeps): Promise<Result<object>> {
  const today = utcDay(deps.clock.now());
  const months = monthsEnding(today.slice(0, 7), query.months);
  const weeks = Array.from({ length: COHORT_WEEKS }, (_, i) => addDays(weekOf(today), -7 * (COHORT_WEEKS - 1 - i)));
  const filter = cellFilter(query.filter);
  const since = (pk: string) => deps.store.cohorts.since(pk, months[0]!, weeks[0]!);
  // A filtered read's cohorts are the whole cohorts (their own partition), its cells the filter value's.
  const { value, availability } = await readActivity(deps.store, deps.logger, () =>
    Promise.all([since(cohortsPk()), filter === null ? null : since(cellPartition(filter.dimension, filter.value))]),
  );
  const base = { months: months.length, from: months[0]!, to: months[months.length - 1]!, error: SKETCH_ERROR };
  if (value === null) return ok({ ...base, cohorts: null, weeks: null, availability, cost: costOf(deps.store) });
  const [whole, cells] = [value[0], value[1] ?? value[0]];
  const ofSpan = (figures: readonly CohortFigures[], span: CohortFigures['span']) => figures.filter((cell) => cell.span === span);
  const rows = (span: CohortFigures['span'], cohorts: readonly string[]) =>
    rowsOf(ofSpan(cells, span), ofSpan(whole, span), cohorts, (cohort) => cohorts.filter((at) => at >= cohort));
  // Week cohorts are kept for the whole site only.
  const [monthRows, weekRows] = [rows('month', months), filter === null ? rows('week', weeks) : null];
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
    availability,
    cost: costOf(deps.store),
  });
}
