import { badRequest, fail, ok, type Result } from '../../core/result';
import type { BotReason, Who } from '../../core/identity/who';
import { z } from 'zod';
import type { VisitorDay } from '../../core/store/activity';
import type { TablePlace } from '../../core/store/activity-days';
import { readActivity } from './availability';
import type { ActivityDeps } from './report';
import type { visitorsQuerySchema } from '../../contract/queries';
import { topEntries, tokenDays } from './token-days';
import type { DayVisitorsAnswer } from '../../contract/activity';

/** How many paths a row names. */
export const ROW_TOP_PATHS = 10;

/** One row of the day's table: one daily token on one store. */
export interface VisitorRow {
  token: string;
  network: string;
  store: string;
  /** Who the token was that day across every store, by the one rule: the kind the day's chart counts it as. */
  kind: Who;
  /** Why the token was left out that day, when it was a scanner (the reason the day's chart counts it under). */
  left_out: BotReason | null;
  first_seen: string;
  last_seen: string;
  requests: number;
  bots: number;
  self: number;
  page_loads: number;
  top_paths: Array<{ path: string; requests: number }>;
  sources: Array<{ host: string; page_loads: number }>;
}

/** How many rows a page of the day's table holds. */
export const VISITORS_PAGE = 100;

/** The page's rows, each with its kind across every store its token reached that day (`others`: those rows too). */
function rowsOf(docs: readonly VisitorDay[], others: readonly VisitorDay[]): VisitorRow[] {
  const all = [...docs, ...others.filter((other) => !docs.some((doc) => doc.id === other.id))];
  const days = new Map(tokenDays(all).flatMap((visitorDay) => visitorDay.docs.map((doc) => [doc.id, visitorDay] as const)));
  return docs.map((doc) => ({
    token: doc.token,
    network: doc.network,
    store: doc.store,
    kind: days.get(doc.id)!.kind,
    left_out: days.get(doc.id)!.reason,
    first_seen: doc.first_seen,
    last_seen: doc.last_seen,
    requests: doc.requests,
    bots: doc.bots,
    self: doc.self,
    page_loads: doc.page_loads,
    top_paths: topEntries(doc.paths, ROW_TOP_PATHS).map(({ name, count }) => ({ path: name, requests: count })),
    sources: topEntries(doc.sources, Number.POSITIVE_INFINITY).map(({ name, count }) => ({ host: name, page_loads: count })),
  }));
}

/** The place a `next` token names, or null when it names none this app made. */
function placeOf(next: string): TablePlace | null {
  try {
    const place: unknown = JSON.parse(Buffer.from(next, 'base64url').toString('utf8'));
    const parsed = placeSchema.safeParse(place);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const placeSchema = z.object({ first_seen: z.string(), id: z.string() });

const tokenOf = (place: TablePlace) => Buffer.from(JSON.stringify(place), 'utf8').toString('base64url');

/** Two queries a page, so a page costs its rows whatever the day holds. */
export async function activityVisitors(query: z.infer<typeof visitorsQuerySchema>, deps: ActivityDeps): Promise<Result<DayVisitorsAnswer>> {
  const after = query.next === undefined ? null : placeOf(query.next);
  if (query.next !== undefined && after === null)
    return fail(badRequest([{ path: 'next', message: 'must be the next token of the page before, as it was given' }]));
  const { day } = query;
  const { value, availability } = await readActivity(deps.store, deps.logger, async () => {
    const page = await deps.store.activityDays.pageOn(day, after, VISITORS_PAGE + 1);
    const shown = page.slice(0, VISITORS_PAGE);
    const others = shown.length === 0 ? [] : await deps.store.activityDays.ofTokens(day, [...new Set(shown.map((doc) => doc.token))]);
    return { rows: rowsOf(shown, others), more: page.length > VISITORS_PAGE ? shown[shown.length - 1]! : null };
  });
  const next = value?.more ? tokenOf({ first_seen: value.more.first_seen, id: value.more.id }) : null;
  return ok({ day, visitors: value && value.rows, next, availability });
}
