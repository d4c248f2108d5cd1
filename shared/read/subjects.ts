import { z } from 'zod';
import type { detailQuerySchema, listQuerySchema } from '../contract/queries';
import { daysEnding } from '../core/days';
import { badRequest, fail, ok, type Result } from '../core/result';
import { daysOrSet, zoneOfAnswer, type ReadZone } from '../core/sites/zones';
import type { Clock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import { SUBJECT_SORTS, type SubjectsPageQuery, type SubjectsStore, type SubjectSummary } from '../core/store/subjects';
import { errorLine } from '../core/errors';
import type { SubjectFiguresAnswer, SubjectsPageAnswer } from '../contract/admin';

export interface SubjectReadDeps extends ReadZone {
  subjects: SubjectsStore;
  /** Where the store keeps things, said on every answer. */
  source: string;
  clock: Clock;
  logger: Logger;
}

/** Bound to the sort and order it was made for. */
const continuationSchema = z.strictObject({ sort: z.enum(SUBJECT_SORTS), order: z.enum(['asc', 'desc']), token: z.string().max(3000) });

const badContinuation = (message: string) => fail(badRequest([{ path: 'continuation', message }]));

function readContinuation(text: string | undefined, sort: string, order: string): Result<string | null> {
  if (text === undefined) return ok(null);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return badContinuation('is not a continuation this endpoint gave');
  }
  const parsed = continuationSchema.safeParse(value);
  if (!parsed.success) return badContinuation('is not a continuation this endpoint gave');
  if (parsed.data.sort !== sort || parsed.data.order !== order)
    return badContinuation('was given for another sort or order; start again without it');
  return ok(parsed.data.token);
}

const writeContinuation = (token: string | null, sort: string, order: string) =>
  token === null ? null : Buffer.from(JSON.stringify({ sort, order, token }), 'utf8').toString('base64url');

const unavailable = (deps: SubjectReadDeps, error: unknown) => {
  deps.logger.warn('the subjects could not be read', { reason: errorLine(error) });
  return fail({ status: 503, code: 'store_unavailable', message: 'the store cannot answer right now; retry later' });
};

export async function subjectsPage(query: z.infer<typeof listQuerySchema>, deps: SubjectReadDeps): Promise<Result<SubjectsPageAnswer>> {
  const { sort, order, limit } = query;
  const continuation = readContinuation(query.continuation, sort, order);
  if (!continuation.ok) return continuation;
  const page: SubjectsPageQuery = { sort, order, limit, continuation: continuation.value };
  try {
    const found = await deps.subjects.list(page);
    if (found === 'bad-continuation') return badContinuation('is not a continuation this endpoint gave');
    return ok({
      subjects: found.rows,
      sort,
      order,
      limit,
      continuation: writeContinuation(found.continuation, sort, order),
      source: deps.source,
    });
  } catch (error) {
    return unavailable(deps, error);
  }
}

export function subjectAnswer(summary: SubjectSummary, today: string, days: number, source: string) {
  const { subject, scans, unique, repeat, scanners, self, first_scan, last_scan } = summary;
  const by_day = daysEnding(today, days).map((day) => ({
    day,
    scans: summary.by_day[day]?.scans ?? 0,
    new: summary.by_day[day]?.new ?? 0,
  }));
  return { subject, scans, unique, repeat, scanners, self, first_scan, last_scan, days, by_day, source };
}

export async function oneSubject(
  id: string,
  query: z.infer<typeof detailQuerySchema>,
  deps: SubjectReadDeps,
): Promise<Result<SubjectFiguresAnswer>> {
  try {
    const found = await deps.subjects.summaries.read(id);
    if (found === null) return fail({ status: 404, code: 'not_found', message: `id: no scan of subject ${id} has been kept` });
    const days = await daysOrSet(deps);
    return ok({ ...subjectAnswer(found.doc, days.dayOf(deps.clock.now()), query.days, deps.source), ...zoneOfAnswer(days) });
  } catch (error) {
    return unavailable(deps, error);
  }
}
