import type { PersonIds } from '../shared/core/identity/person-id';
import type { Goal } from '../shared/core/events/events';
import type { Clock } from '../shared/core/ports/clock';
import type { Store } from '../shared/core/store';
import type { GoalPersons } from '../shared/fold/goals';
import { personIdsMigration } from '../shared/fold/migrations/person-ids';
import type { Migration } from '../shared/fold/migrations/runner';
import { personSwitch, type PersonSwitch } from '../shared/keep/switched';

/** A process's two ways to derive a person id (docs/design.md, Identity). */
export interface PersonIdDerivations {
  /** The process's day cache, which the ingest, keep-hits and the fold share, as they meet the same visitors. */
  cached: PersonIds;
  /** Uncached: the migration derives each kept record once, and would push the day's visitors out of the cache. */
  once: (old: string) => Promise<string>;
}

/** One store's part of the dated switch: its migration, and what its keeps and its fold need while it runs. */
export interface StoreSwitch {
  personSwitch: PersonSwitch;
  persons: GoalPersons;
  migration: Migration;
}

/** Each store has its own migration, so keeps and fold of a store ask that store whether it has begun. */
export function storeSwitch(store: Store, goals: readonly Goal[], ids: PersonIdDerivations, clock: Clock): StoreSwitch {
  const sw = personSwitch(store.migrations, store.personMoves.at, (old) => ids.cached.of(old));
  const names = goals.map((goal) => goal.name);
  return {
    personSwitch: sw,
    persons: sw,
    migration: personIdsMigration(store.personMoves, ids.once, clock, { store: store.goals, names: () => names, subjects: store.subjects }),
  };
}
