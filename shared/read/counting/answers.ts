import { asOperator, type OperatorSettings } from '../../http/admin/auth';
import { corsHeaders, preflight, type CorsPolicy } from '../../http/cors';
import type { Answer } from '../../http/envelope';
import type { IncomingRequest } from '../../http/request';
import { pulseOf, readPeopleCount, type PeopleCountDeps } from './people-count';
import type { GoalsStore } from '../../core/events/goal-documents';

/** What the two reads of the count need: the query's dependencies, the operator's settings and the allowed origins. */
export interface CountAnswerDeps {
  count: PeopleCountDeps;
  operator: OperatorSettings;
  allowedOrigins: readonly string[];
  /** PULSE_GOAL: the goal whose people all time the pulse carries, and where its summary is; null when none is named. */
  pulseGoal: { name: string; summaries: GoalsStore['summaries'] } | null;
}

/** The pulse's goal: its name and its people all time (null when the store did not answer); absent when none is named. */
async function pulseGoalOf(goal: CountAnswerDeps['pulseGoal']) {
  if (goal === null) return {};
  const people = await goal.summaries.read(goal.name).then(
    (read) => read?.doc.people_all_time ?? 0,
    () => null,
  );
  return { goal: { name: goal.name, people_all_time: people } };
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
  const [count, goal] = await Promise.all([readPeopleCount(deps.count), pulseGoalOf(deps.pulseGoal)]);
  return { status: 200, body: { ...pulseOf(count), ...goal }, headers: { 'cache-control': 'public, max-age=60', vary: 'Origin', ...cors } };
}
