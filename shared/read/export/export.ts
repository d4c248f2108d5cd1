import { zoneOfAnswer, type SiteDays } from '../../core/sites/zones';
import type { z } from 'zod';
import type { exportQuerySchema } from '../../contract/queries';
import { readActivity, type ActivityStore } from '../activity/availability';
import { cellFilter } from '../../core/rollup/filters';
import { readPeriodsAcross, type EarlierStore } from '../activity/earlier';
import type { FunnelStep } from '../../core/funnel';
import type { Goal } from '../../core/events/events';
import { addDays, daySpan } from '../../core/days';
import { badRequest, fail, ok, type Result } from '../../core/result';
import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import { toCsv } from './csv';
import { identityFrom } from '../../core/store/person-moves';
import { firstKeptDay } from '../../core/store/first-day';
import { exportRows } from './rows';
import type { ExportDaysAnswer } from '../../contract/activity';
import type { ConfigSegment } from '../../core/store/config';
import { withSegments } from '../activity/configured';

export interface ExportDeps {
  store: ActivityStore;
  clock: Clock;
  logger: Logger;
  funnel: readonly FunnelStep[];
  goals: readonly Goal[];
  /** Saved in the configuration: `filter=segment:<name>` reads their filters. */
  segments?: readonly ConfigSegment[];
  /** All sites' only: the first site's store for the days up to the one all sites began. */
  earlier?: EarlierStore;
  /** The site's days: a row is a local day. */
  days: () => Promise<SiteDays>;
}

export type ExportFile = { json: ExportDaysAnswer } | { csv: string; filename: string };

/** A store that cannot answer is a 503, since an empty export would read as a quiet stretch. */
export async function exportDays(query: z.infer<typeof exportQuerySchema>, deps: ExportDeps): Promise<Result<ExportFile>> {
  const { from, to, format } = query;
  const filters = withSegments(query.filter, query.segments ?? [], deps.segments ?? []);
  if (typeof filters === 'string') return fail(badRequest([{ path: 'filter', message: filters }]));
  const days = Array.from({ length: daySpan(from, to) }, (_, i) => addDays(from, i));
  const rules = { steps: deps.funnel, goals: deps.goals };
  const { value } = await readActivity(deps.store, deps.logger, async () => {
    // Only a filter's cells need to know from when they are kept.
    const [state, first, zones] = await Promise.all([
      filters.length === 0 ? null : deps.store.foldState.read(),
      firstKeptDay(deps.store),
      deps.days(),
    ]);
    const today = zones.dayOf(deps.clock.now());
    const periodsFrom = state?.doc.periods_from ?? (filters.length === 0 ? '0000-00-00' : '9999-12-31');
    // Every day asked is a row; only the days that can hold data are read.
    const readable = days.filter((day) => first !== null && day >= first && day <= today);
    const read = await Promise.all([
      readPeriodsAcross(deps.store, deps.earlier, [readable], filters, { month: periodsFrom, year: periodsFrom }, rules, false),
      deps.store.visitorsSummary.peopleFrom(from),
      deps.store.visits.read(),
      // Only the JSON answer has a field for it.
      format === 'json' ? identityFrom(deps.store.migrations) : null,
    ]);
    return [...read, periodsFrom, zones] as const;
  });
  if (value === null)
    return fail({
      status: 503,
      code: 'store_unavailable',
      message: 'the store that keeps activity could not be read just now; retry later',
    });
  const [read, people, visits, identity, periodsFrom, zones] = value;
  if ('refused' in read) return fail(badRequest([{ path: 'filter', message: read.refused }]));
  const filtered = filters.length > 0;
  const rows = exportRows(days, read[0]!.days, filtered ? null : people.people_new_by_day, filtered ? null : (visits?.doc.by_day ?? {}));
  // Several filters while the day files migration runs are whole from the day it has written back to.
  const wholeFrom = read[0]!.wholeFrom;
  const whole = wholeFrom === undefined && (cellFilter(filters) === null || from >= periodsFrom);
  const filteredOnly = filtered ? { complete: whole, filters_from: wholeFrom ?? periodsFrom } : {};
  const switched = identity !== null && from < identity && identity <= to ? { identity_from: identity } : {};
  if (format === 'json')
    return ok({ json: { from, to, days: days.length, filters, ...filteredOnly, ...switched, ...zoneOfAnswer(zones), rows } });
  return ok({ csv: toCsv(rows), filename: `headcount-${from}-${to}.csv` });
}
