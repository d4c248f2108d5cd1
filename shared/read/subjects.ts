import { z } from 'zod';
import { wholeNumberText } from '../core/whole-number';
import { asOperator, type OperatorSettings } from '../http/admin/auth';
import { daysEnding } from '../core/days';
import { parseWith } from '../http/body';
import { siteQuerySchema } from '../core/sites/sites';
import { subjectSchema } from '../ingest/schemas';
import { errorAnswer, type Answer } from '../http/envelope';
import { badRequest, fail, ok, type Result } from '../core/result';
import type { IncomingRequest } from '../http/request';
import { utcDay } from '../core/identity/tokens';
import type { Clock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import { SUBJECT_SORTS, type SubjectsPageQuery, type SubjectsStore, type SubjectSummary } from '../core/subjects/documents';
import { errorLine } from '../core/errors';

/** What the subjects' Admin reads need. */
export interface SubjectReadDeps {
  subjects: SubjectsStore;
  /** Where the store keeps things, said on every answer. */
  source: string;
  clock: Clock;
  logger: Logger;
  operator: OperatorSettings;
}

export const listQuerySchema = z.strictObject({
  sort: z.enum(SUBJECT_SORTS, `must be one of ${SUBJECT_SORTS.join(', ')}`).default('last_scan'),
  order: z.enum(['asc', 'desc'], 'must be asc or desc').default('desc'),
  limit: wholeNumberText(1, 200, 50),
  continuation: z.string().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters').optional(),
  site: siteQuerySchema,
});

export const detailQuerySchema = z.strictObject({
  days: wholeNumberText(1, 366, 30),
  site: siteQuerySchema,
});

/** The continuation handed to the caller: the store's own, bound to the sort and order it was made for. */
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

const queryOf = (request: IncomingRequest) => Object.fromEntries(request.query.entries());

const unavailable = (deps: SubjectReadDeps, error: unknown): Answer => {
  deps.logger.warn('the subjects could not be read', { reason: errorLine(error) });
  return errorAnswer({ status: 503, code: 'store_unavailable', message: 'the store cannot answer right now; retry later' });
};

async function listPage(request: IncomingRequest, deps: SubjectReadDeps): Promise<Answer> {
  const query = parseWith(listQuerySchema, queryOf(request));
  if (!query.ok) return errorAnswer(query.failure);
  const { sort, order, limit } = query.value;
  const continuation = readContinuation(query.value.continuation, sort, order);
  if (!continuation.ok) return errorAnswer(continuation.failure);
  const page: SubjectsPageQuery = { sort, order, limit, continuation: continuation.value };
  try {
    const found = await deps.subjects.list(page);
    if (found === 'bad-continuation')
      return errorAnswer(badRequest([{ path: 'continuation', message: 'is not a continuation this endpoint gave' }]));
    return {
      status: 200,
      body: {
        subjects: found.rows,
        sort,
        order,
        limit,
        continuation: writeContinuation(found.continuation, sort, order),
        source: deps.source,
      },
    };
  } catch (error) {
    return unavailable(deps, error);
  }
}

/** The subject's figures with the last `days` UTC days (oldest first, days with none as zeros). */
export function subjectAnswer(summary: SubjectSummary, today: string, days: number, source: string) {
  const { subject, scans, unique, repeat, scanners, self, first_scan, last_scan } = summary;
  const by_day = daysEnding(today, days).map((day) => ({
    day,
    scans: summary.by_day[day]?.scans ?? 0,
    new: summary.by_day[day]?.new ?? 0,
  }));
  return { subject, scans, unique, repeat, scanners, self, first_scan, last_scan, days, by_day, source };
}

async function oneSubject(request: IncomingRequest, deps: SubjectReadDeps): Promise<Answer> {
  const id = parseWith(subjectSchema, request.params.id ?? '', 'id');
  if (!id.ok) return errorAnswer(id.failure);
  const query = parseWith(detailQuerySchema, queryOf(request));
  if (!query.ok) return errorAnswer(query.failure);
  try {
    const found = await deps.subjects.summaries.read(id.value);
    if (found === null) return errorAnswer({ status: 404, code: 'not_found', message: `id: no scan of subject ${id.value} has been kept` });
    return { status: 200, body: subjectAnswer(found.doc, utcDay(deps.clock.now()), query.value.days, deps.source) };
  } catch (error) {
    return unavailable(deps, error);
  }
}

/** GET /api/admin/subjects (operator key): every subject with its totals, sorted and paged by the store's continuation. */
export const answerSubjects = (request: IncomingRequest, deps: SubjectReadDeps) =>
  asOperator(request, deps.operator, () => listPage(request, deps));

/** GET /api/admin/subjects/{id} (operator key): one subject with its figures by day; 404 for a subject never scanned. */
export const answerSubject = (request: IncomingRequest, deps: SubjectReadDeps) =>
  asOperator(request, deps.operator, () => oneSubject(request, deps));
