import { asOperator } from '../admin/auth';
import { errorAnswer, type Answer } from '../http/envelope';
import type { IncomingRequest } from '../http/request';
import type { BotReason, VisitorKind } from '../identity/kinds';
import type { VisitorDay } from '../store/activity';
import { readActivity } from './availability';
import type { ActivityDeps } from './card';
import { readQuery, visitorsQuerySchema } from './query';
import { topEntries, tokenDays } from './token-days';

/** How many paths a row names. */
export const ROW_TOP_PATHS = 10;

/** One row of the day's table: one daily token on one store. */
export interface VisitorRow {
  token: string;
  network: string;
  store: string;
  /** Who the token was that day across every store, by the one rule: the kind the day's chart counts it as. */
  kind: VisitorKind;
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

function rowsOf(docs: readonly VisitorDay[]): VisitorRow[] {
  const days = new Map(tokenDays(docs).flatMap((visitorDay) => visitorDay.docs.map((doc) => [doc.id, visitorDay] as const)));
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

/**
 * GET /api/admin/activity/visitors?day=YYYY-MM-DD: the day's visitor-day rows, first seen first, read with one query
 * in the day's partition. Only the operator reads it; a store that cannot answer gives 200 with `available: false`.
 */
export function activityVisitors(request: IncomingRequest, deps: ActivityDeps): Promise<Answer> {
  return asOperator(request, deps.operator, async () => {
    const query = readQuery(visitorsQuerySchema, request);
    if (!query.ok) return errorAnswer(query.failure);
    const { value, availability } = await readActivity(deps.store, deps.logger, () =>
      deps.store.activityDays.visitorDaysOn(query.value.day),
    );
    return { status: 200, body: { day: query.value.day, visitors: value && rowsOf(value), availability } };
  });
}
