import { createHash } from 'node:crypto';
import type { Goal } from '../events/events';
import type { Funnel } from '../funnel';
import type { ConfigDoc, ConfigFunnel, ConfigGoal } from '../store/config';

const hashOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);

/** Named for what it counts and when it was added, so a goal changed or added again is counted back again. */
const backName = (goal: ConfigGoal) =>
  `goal-back:${goal.name}:${goal.added}:${hashOf([goal.event ?? null, goal.pages ?? null, goal.site ?? null])}`;

/** Every funnel is added after the count began, so each is counted back. */
export const funnelsOf = (config: Pick<ConfigDoc, 'funnels'>): Array<Funnel & { back: string; added: string }> =>
  config.funnels.map((funnel: ConfigFunnel) => ({
    name: funnel.name,
    steps: funnel.steps,
    back: `funnel-back:${funnel.name}:${funnel.added}:${hashOf(funnel.steps)}`,
    added: funnel.added,
  }));

export const goalOf = (goal: ConfigGoal): Goal => ({
  name: goal.name,
  events: goal.event === undefined ? [] : [goal.event],
  paths: goal.pages ?? [],
  ...(goal.site === undefined ? {} : { site: goal.site }),
  ...(goal.seeded === true ? {} : { back: backName(goal), added: goal.added }),
});

/** A goal that names its site counts on it alone; the others on every site and on all of them. */
export const goalsOfSite = (config: Pick<ConfigDoc, 'goals'>, site: string): Goal[] =>
  config.goals.filter((goal) => goal.site === undefined || goal.site === site).map(goalOf);
