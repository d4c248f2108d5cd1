import { ok } from '../../core/result';
import { pulseOf, readPeopleCount, type PeopleCountDeps } from './people-count';
import type { GoalsStore } from '../../core/events/goal-documents';

/** What the two reads of the count need: the query's dependencies, and the origins whose pages may read the pulse. */
export interface CountAnswerDeps {
  count: PeopleCountDeps;
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
export const peopleCount = async (deps: CountAnswerDeps) => ok(await readPeopleCount(deps.count));

/**
 * GET /api/pulse: the same count, flat, with the pulse goal's people. It answers whatever the store does (an unread
 * store is null figures).
 */
export async function pulse(deps: CountAnswerDeps) {
  const [count, goal] = await Promise.all([readPeopleCount(deps.count), pulseGoalOf(deps.pulseGoal)]);
  return ok({ ...pulseOf(count), ...goal });
}
