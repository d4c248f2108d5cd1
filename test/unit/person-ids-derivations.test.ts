import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { derivePersonId } from '../../shared/core/identity/person-id';
import type { Goal } from '../../shared/core/events/events';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { fold } from '../../shared/fold/fold';
import { personIdsMigration } from '../../shared/fold/migrations/person-ids';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { keepHits, keepMemory } from '../../shared/keep/keep';
import { queuedHit } from '../support/counting';

const DAY = '2026-12-01';
const GOALS: Goal[] = [{ name: 'pricing', events: [], paths: ['/pricing'] }];
const derive = (old: string) => derivePersonId(old, 1);

describe("a goal build's derivations once the switch of person ids has begun", () => {
  it('a goal added later reads facts of old ids in slices that each derive at most the budget’s people, and counts them all', async () => {
    const store = memoryStore();
    const clock = { now: () => new Date(`${DAY}T12:00:00.000Z`) };
    const memory = keepMemory();
    // Three messages of five people each, kept before the goal existed and before the switch began.
    for (const batch of [0, 1, 2]) {
      const hits = [0, 1, 2, 3, 4].map((n) => queuedHit(`${DAY}T10:00:00.000Z`, { person: `old-${batch}-${n}`, path: '/pricing' }));
      const outcome = await keepHits({ v: 1, id: crypto.randomUUID(), hits }, { store, clock, ...memory });
      expect(outcome.ok).toBe(true);
    }
    const deps = { store, clock, rules: scanRules(10, 60), lateDays: 7 };
    expect((await fold(deps)).ok).toBe(true);
    // Begun, not done: no slice runs.
    const migration = personIdsMigration(store.personMoves, derive, clock);
    expect(await runMigrations(store.migrations, [migration], { now: clock.now(), limit: 10, more: () => Promise.resolve(false) })).toBe(
      false,
    );
    // Derivations counted between one read of facts and the next, so each count is one slice's.
    const perSlice: number[] = [0];
    const facts = {
      ...store.facts,
      firstOn: (...args: Parameters<typeof store.facts.firstOn>) => (perSlice.push(0), store.facts.firstOn(...args)),
    };
    const persons = {
      begun: () => Promise.resolve(true),
      derive: (old: string) => ((perSlice[perSlice.length - 1]! += 1), derive(old)),
    };
    const budget = { ...TIMER_FOLD_BUDGET, factsASlice: 10, derivationsASlice: 6 };
    expect((await fold({ ...deps, store: { ...store, facts }, goals: GOALS, persons, budget })).ok).toBe(true);
    expect(Math.max(...perSlice)).toBeLessThanOrEqual(6);
    expect(perSlice.reduce((sum, count) => sum + count, 0)).toBe(15);
    expect((await store.goals.summaries.read('pricing'))?.doc).toMatchObject({ people_all_time: 15 });
  });
});
