import { ok, type Result } from '../../core/result';
import type { PeopleCountAnswer, PulseAnswer } from '../../contract/count';
import { pulseOf, readPeopleCount, type PeopleCountDeps } from './people-count';
import type { GoalsStore } from '../../core/store/goals';

export interface CountAnswerDeps {
  /** The site counted, named by the pulse. */
  site: string;
  count: PeopleCountDeps;
  allowedOrigins: readonly string[];
  /** PULSE_GOAL: the goal whose people all time the pulse carries, and where its summary is; null when none is named. */
  pulseGoal: { name: string; summaries: GoalsStore['summaries'] } | null;
}

async function pulseGoalOf(goal: CountAnswerDeps['pulseGoal']) {
  if (goal === null) return {};
  const people = await goal.summaries.read(goal.name).then(
    (read) => read?.doc.people_all_time ?? 0,
    () => null,
  );
  return { goal: { name: goal.name, people_all_time: people } };
}

export const peopleCount = async (deps: CountAnswerDeps): Promise<Result<PeopleCountAnswer>> => ok(await readPeopleCount(deps.count));

/** An unread store is null figures, never an error. */
export async function pulse(deps: CountAnswerDeps): Promise<Result<PulseAnswer>> {
  const [count, goal] = await Promise.all([readPeopleCount(deps.count), pulseGoalOf(deps.pulseGoal)]);
  return ok({ site: deps.site, ...pulseOf(count), ...goal });
}
