import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { derivePersonId } from '../../shared/core/identity/person-id';
import type { Goal } from '../../shared/core/events/events';
import type { QueuedHit } from '../../shared/core/message';
import { migrationStatus } from '../../shared/core/store/migrations';
import { PERSON_IDS_MIGRATION } from '../../shared/core/store/person-moves';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { fold } from '../../shared/fold/fold';
import type { GoalPersons } from '../../shared/fold/goals';
import { personIdsMigration } from '../../shared/fold/migrations/person-ids';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { keepHits, keepMemory } from '../../shared/keep/keep';
import { personSwitch, type PersonSwitch } from '../../shared/keep/switched';
import { queuedHit } from '../support/counting';
import { claimedVisitor } from '../../shared/core/subjects/visitor';

type Store = ReturnType<typeof memoryStore>;

const derive = (old: string) => derivePersonId(old, 1);
const GOALS: Goal[] = [{ name: 'pricing', events: [], paths: ['/pricing'] }];
const DAYS = ['2026-12-01', '2026-12-02', '2026-12-03'] as const;

const pricing = (day: string, person: string, hour = 10) =>
  queuedHit(`${day}T${String(hour).padStart(2, '0')}:00:00.000Z`, { person, path: '/pricing', subject: 'poster' });

/** A store kept and folded as the host would, switched once `begin` is called. */
function rigOf() {
  const store: Store = memoryStore();
  const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
  const clock = { now: () => at.now };
  const memory = keepMemory();
  const switched: { keep?: PersonSwitch; fold?: GoalPersons } = {};
  const migration = personIdsMigration(store.personMoves, derive, clock, {
    store: store.goals,
    names: () => GOALS.map((goal) => goal.name),
    subjects: store.subjects,
  });
  return {
    store,
    at,
    begin() {
      switched.keep = personSwitch(store.migrations, store.personMoves.at, derive);
      switched.fold = { begun: () => switched.keep!.begun(), derive };
    },
    async keep(hits: QueuedHit[]) {
      const outcome = await keepHits(
        { v: 1, id: crypto.randomUUID(), hits },
        { store, clock, ...memory, ...(switched.keep ? { personSwitch: switched.keep } : {}) },
      );
      if (!outcome.ok) throw new Error(outcome.reason);
    },
    async fold() {
      const deps = { store, clock, rules: scanRules(10, 60), lateDays: 7, goals: GOALS, budget: TIMER_FOLD_BUDGET };
      const outcome = await fold({ ...deps, ...(switched.fold ? { persons: switched.fold } : {}) });
      if (!outcome.ok) throw new Error(outcome.reason);
      at.now = new Date(at.now.getTime() + 10 * 60_000);
    },
    /** At most `slices` slices of 2 items. */
    migrate: (slices: number) => {
      let left = slices;
      return runMigrations(store.migrations, [migration], { now: at.now, limit: 2, more: () => Promise.resolve(left-- > 0) });
    },
  };
}

/** Day 1 before the switch; day 2 kept before, across and after it; day 3 after it. `between` runs the migration. */
async function history(rig: ReturnType<typeof rigOf>, between: (step: 'begin' | 'end') => Promise<void>) {
  await rig.keep([pricing(DAYS[0], 'a'), pricing(DAYS[0], 'b'), queuedHit(`${DAYS[0]}T11:00:00.000Z`, { person: 'c' })]);
  await rig.fold();
  rig.at.now = new Date(`${DAYS[1]}T12:00:00.000Z`);
  // Kept before the begin, folded after some goal documents moved.
  await rig.keep([pricing(DAYS[1], 'd'), pricing(DAYS[1], 'a', 9)]);
  await between('begin');
  await rig.keep([pricing(DAYS[1], 'e'), pricing(DAYS[1], 'b'), pricing(DAYS[1], 'a', 8)]);
  await rig.fold();
  await between('end');
  rig.at.now = new Date(`${DAYS[2]}T12:00:00.000Z`);
  await rig.keep([pricing(DAYS[2], 'a'), pricing(DAYS[2], 'd'), pricing(DAYS[2], 'f'), pricing(DAYS[2], 'c')]);
  await rig.fold();
  await rig.fold();
}

async function figures(store: Store) {
  const goal = (await store.goals.summaries.read('pricing'))?.doc;
  const conversions = store.documents.query<{ kind: string; day: string }>((doc) => doc.kind === 'goal-day').map((doc) => doc.day);
  const people = store.documents.query<{ kind: string }>((doc) => doc.kind === 'goal-person').length;
  const visitors = (await store.visitorsSummary.read())?.doc;
  const counts = await Promise.all(DAYS.map((day) => store.recordCounts.countsOn(day)));
  const subject = (await store.subjects.summaries.read('poster'))?.doc;
  const scans = subject && { scans: subject.scans, unique: subject.unique, by_day: subject.by_day, last: subject.last_scan };
  return { goal, conversions: conversions.sort(), people, visitors, counts, scans };
}

describe("the goals' and subjects' figures across the dated switch of person ids", () => {
  it.each([
    ['no goal documents', 2, 4],
    ['half its goal documents', 3, 2],
    ['its goal and subject documents', 5, 0],
  ])('a store switched mid-history with %s moved while facts of both ids fold counts as one never switched', async (_, slices, unmoved) => {
    const control = rigOf();
    await history(control, () => Promise.resolve());
    const moved = rigOf();
    await history(moved, async (step) => {
      if (step === 'begin') {
        moved.begin();
        // Every record moved (2 a slice), then 2 goal documents a slice: the migration is begun, not done.
        expect(await moved.migrate(slices)).toBe(false);
        expect(
          moved.store.documents.query<{ kind: string; derived?: true }>(
            (doc) => ['goal-person', 'goal-day'].includes(doc.kind) && doc.derived !== true,
          ),
        ).toHaveLength(unmoved);
      } else {
        expect(await moved.migrate(20)).toBe(true);
        expect(await migrationStatus(moved.store.migrations, PERSON_IDS_MIGRATION)).toMatchObject({ done: true });
      }
    });
    const expected = await figures(control.store);
    expect(expected.goal).toMatchObject({ people_all_time: 6 });
    expect(expected.conversions).toHaveLength(10);
    expect(expected.scans).toMatchObject({ unique: 6 });
    expect(await figures(moved.store)).toEqual(expected);
    const left = moved.store.documents.query<{ kind: string; derived?: true }>((doc) =>
      ['goal-person', 'goal-day', 'subject-visitor'].includes(doc.kind),
    );
    expect(left.every((doc) => doc.derived === true)).toBe(true);
  });

  it('a visitor the beacon claims under the old id just after the switch is moved by the fold as it folds the scan, so its next scan, derived, is not new', async () => {
    const rig = rigOf();
    rig.begin();
    expect(await rig.migrate(20)).toBe(true);
    const old = pricing(DAYS[0], 'z').person!;
    await rig.store.subjects.visitors.create(claimedVisitor('poster', old, `${DAYS[0]}T10:00:00.000Z`));
    await rig.keep([pricing(DAYS[0], 'z')]);
    await rig.fold();
    await rig.keep([{ ...pricing(DAYS[0], 'z', 11), person: await derive(old), person_derived: true }]);
    await rig.fold();
    expect((await rig.store.subjects.summaries.read('poster'))?.doc).toMatchObject({ unique: 1 });
    const visitors = rig.store.documents.query<{ kind: string; id: string }>((doc) => doc.kind === 'subject-visitor');
    expect(visitors.map((doc) => doc.id)).toEqual([`subject-visitor:poster:${await derive(old)}`]);
  });
});
