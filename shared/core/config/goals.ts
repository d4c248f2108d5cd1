import { createHash } from 'node:crypto';
import type { Goal } from '../events/events';
import type { ConfigDoc, ConfigGoal } from '../store/config';

/** Named for what it counts and when it was added, so a goal changed or added again is counted back again. */
const backName = (goal: ConfigGoal) =>
  `goal-back:${goal.name}:${goal.added}:${createHash('sha256')
    .update(JSON.stringify([goal.event ?? null, goal.pages ?? null, goal.site ?? null]))
    .digest('hex')
    .slice(0, 12)}`;

export const goalOf = (goal: ConfigGoal): Goal => ({
  name: goal.name,
  events: goal.event === undefined ? [] : [goal.event],
  paths: goal.pages ?? [],
  ...(goal.site === undefined ? {} : { site: goal.site }),
  ...(goal.seeded === true ? {} : { back: backName(goal) }),
});

/** A goal that names its site counts on it alone; the others on every site and on all of them. */
export const goalsOfSite = (config: Pick<ConfigDoc, 'goals'>, site: string): Goal[] =>
  config.goals.filter((goal) => goal.site === undefined || goal.site === site).map(goalOf);
