import type { Goal } from '../events/events';
import type { Site } from '../sites/sites';
import { CONFIG_ID, CONFIG_PK, type ConfigDoc, type ConfigGoal } from '../store/config';
import { sameJson } from '../same-json';

/** What the settings say, which seed the configuration on first start and are only its defaults after. */
export interface ConfigSeed {
  sites: readonly Site[];
  goals: readonly Goal[];
}

/** A goal of several events is seeded with its first: the configuration's goal is one event or pages. */
const seededGoal = (goal: Goal, today: string): ConfigGoal => ({
  name: goal.name,
  ...(goal.events.length > 0 ? { event: goal.events[0]! } : { pages: [...goal.paths] }),
  ...(goal.site === undefined ? {} : { site: goal.site }),
  added: today,
  seeded: true,
});

export function seededConfig(seed: ConfigSeed, today: string): ConfigDoc {
  return {
    id: CONFIG_ID,
    pk: CONFIG_PK,
    kind: 'config',
    sites: seed.sites.map((site) => ({
      name: site.name,
      origins: [...site.origins],
      time_zone: site.zone,
    })),
    goals: seed.goals.map((goal) => seededGoal(goal, today)),
    funnels: [],
    segments: [],
    annotations: [],
  };
}

/** The settings' parts that differ from the configuration kept, by name: they are logged, never applied. */
export function settingsDiffering(seed: ConfigDoc, kept: ConfigDoc): string[] {
  const goals = (doc: ConfigDoc) => doc.goals.map(({ added: _added, seeded: _seeded, ...goal }) => goal);
  return [...(sameJson(seed.sites, kept.sites) ? [] : ['SITES']), ...(sameJson(goals(seed), goals(kept)) ? [] : ['GOALS'])];
}
