import { asOperator, type OperatorSettings } from '../admin/auth';
import { corsHeaders, preflight, type CorsPolicy } from '../http/cors';
import type { Answer } from '../http/envelope';
import type { IncomingRequest } from '../http/request';
import { pulseOf, readPeopleCount, type PeopleCountDeps } from './people-count';

/** What the two reads of the count need: the query's dependencies, the operator's settings and the allowed origins. */
export interface CountAnswerDeps {
  count: PeopleCountDeps;
  operator: OperatorSettings;
  allowedOrigins: readonly string[];
}

/** GET /api/admin/visitors/people: the count, for the operator only. */
export function answerPeopleCount(request: IncomingRequest, deps: CountAnswerDeps): Promise<Answer> {
  return asOperator(request, deps.operator, async () => ({ status: 200, body: await readPeopleCount(deps.count) }));
}

/** The pulse's CORS policy: the allowed origins may read it with a GET, without credentials. */
export const pulseCors = (allowedOrigins: readonly string[]): CorsPolicy => ({
  allowedOrigins,
  methods: ['GET', 'OPTIONS'],
  allowHeaders: [],
  credentials: false,
});

/**
 * GET /api/pulse: the same count, flat, public and cacheable for a minute. It answers 200 whatever the store does (an
 * unread store is null figures); another origin gets the figures without CORS headers, so its page cannot read them.
 */
export async function answerPulse(request: IncomingRequest, deps: CountAnswerDeps): Promise<Answer> {
  const policy = pulseCors(deps.allowedOrigins);
  if (request.method === 'OPTIONS') return preflight(request, policy);
  const cors = corsHeaders(request, policy) ?? {};
  const count = await readPeopleCount(deps.count);
  return { status: 200, body: pulseOf(count), headers: { 'cache-control': 'public, max-age=60', vary: 'Origin', ...cors } };
}
