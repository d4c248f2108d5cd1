import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import type { GoalsStore } from '../../shared/core/store/goals';
import { derivePersonId } from '../../shared/core/identity/person-id';
import type { Goal } from '../../shared/core/events/events';
import { VISITOR_COOKIES_PK, visitorCookieId, type VisitorCookieLink } from '../../shared/core/store/subjects';
import { claimedVisitor } from '../../shared/core/subjects/visitor';
import type { GoalAction } from '../../shared/core/store/facts';
import { migrationStatus } from '../../shared/core/store/migrations';
import { PERSON_IDS_MIGRATION } from '../../shared/core/store/person-moves';
import { foldGoals } from '../../shared/fold/goals';
import { personIdsMigration } from '../../shared/fold/migrations/person-ids';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { dyingGoals, dyingSubjects } from '../support/dying';

type Store = ReturnType<typeof memoryStore>;

const derive = (old: string) => derivePersonId(old, 1);
const NOW = new Date('2026-12-06T10:00:00Z');
const GOALS: Goal[] = [
  { name: 'signup', events: ['signup'], paths: [] },
  { name: 'pricing', events: [], paths: ['/pricing'] },
];

const action = (person: string, at: string, more: Partial<GoalAction> = {}): GoalAction => ({
  person,
  at,
  events: ['signup'],
  paths: ['/pricing'],
  ...more,
});

/** Two goals reached by three people under their HMAC values, one already derived, and a person left pending. */
async function kept(): Promise<Store> {
  const store = memoryStore();
  await foldGoals(store.goals, GOALS, [
    action('a'.repeat(32), '2026-12-01T10:00:00.000Z'),
    action('a'.repeat(32), '2026-12-02T10:00:00.000Z'),
    action('b'.repeat(32), '2026-12-02T11:00:00.000Z', { paths: [] }),
    action(await derive('c'.repeat(32)), '2026-12-03T09:00:00.000Z', { derived: true }),
  ]);
  // A fold that died after its counts, before the documents they name.
  await foldGoals(dyingGoals(store.goals, 1), GOALS, [action('e'.repeat(32), '2026-12-03T12:00:00.000Z')]).catch(() => undefined);
  for (const [subject, person] of [
    ['poster', 'a'],
    ['poster', 'b'],
    ['flyer', 'a'],
  ] as const)
    await store.subjects.visitors.create(claimedVisitor(subject, person.repeat(32), '2026-12-01T10:00:00.000Z'));
  await store.subjects.visitors.create({
    ...claimedVisitor('flyer', await derive('c'.repeat(32)), '2026-12-01T10:00:00.000Z'),
    derived: true,
  });
  const link = (hash: string, identity: string): VisitorCookieLink => ({
    id: visitorCookieId(hash),
    pk: VISITOR_COOKIES_PK,
    kind: 'visitor-cookie' as const,
    identity,
    ttl: 100,
  });
  await store.subjects.cookies.create(link('1'.repeat(32), 'a'.repeat(32)));
  await store.subjects.cookies.create(link('2'.repeat(32), 'e'.repeat(32)));
  await store.subjects.cookies.create({ ...link('3'.repeat(32), await derive('c'.repeat(32))), derived: true });
  return store;
}

const goalDocs = (store: Store) =>
  store.documents
    .query<Record<string, unknown>>((doc) => /^(goal:|subject:|visitor-cookies$)/.test(String(doc.pk)))
    .sort((a, b) => (`${String(a.pk)}|${String(a.id)}` < `${String(b.pk)}|${String(b.id)}` ? -1 : 1));

async function migrated(store: Store, goals: GoalsStore = store.goals, slices = 100, subjects = store.subjects): Promise<boolean> {
  const migration = personIdsMigration(
    store.personMoves,
    derive,
    { now: () => NOW },
    { store: goals, names: () => GOALS.map((goal) => goal.name), subjects },
  );
  let left = slices;
  return runMigrations(store.migrations, [migration], { now: NOW, limit: 2, more: () => Promise.resolve(left-- > 0) });
}

describe("the person-ids migration moves the goals' and subjects' documents", () => {
  it('creates each person, conversion and subject visitor under the derived id and removes the old, settling pending first, derives the cookie links, and is done only then', async () => {
    const store = await kept();
    const summaries = await Promise.all(GOALS.map(async (goal) => (await store.goals.summaries.read(goal.name))?.doc));
    expect(summaries.map((summary) => summary?.pending.length)).toEqual([2, 0]);

    expect(await migrated(store, store.goals, 2)).toBe(false);
    expect(await migrationStatus(store.migrations, PERSON_IDS_MIGRATION)).toEqual({ done: false, begun: true });
    expect(await migrated(store)).toBe(true);

    const derived = Object.fromEntries(await Promise.all(['a', 'b', 'c', 'e'].map(async (c) => [c, await derive(c.repeat(32))] as const)));
    const people = goalDocs(store).filter((doc) => doc.kind === 'goal-person');
    expect(people.every((doc) => doc.derived === true)).toBe(true);
    expect(people.map((doc) => `${String(doc.goal)}:${String(doc.person)}`).sort()).toEqual(
      [
        `pricing:${derived.a!}`,
        `pricing:${derived.c!}`,
        `signup:${derived.a!}`,
        `signup:${derived.b!}`,
        `signup:${derived.c!}`,
        `signup:${derived.e!}`,
      ].sort(),
    );
    expect(people.find((doc) => doc.id === `goal-person:signup:${derived.a!}`)).toMatchObject({ first_at: '2026-12-01T10:00:00.000Z' });
    const days = goalDocs(store).filter((doc) => doc.kind === 'goal-day');
    expect(days.every((doc) => doc.derived === true)).toBe(true);
    expect(days.map((doc) => doc.id)).toContain(`goal-day:signup:${derived.a!}:2026-12-02`);
    expect(days).toHaveLength(8);
    const subjects = goalDocs(store).filter((doc) => doc.kind === 'subject-visitor');
    expect(subjects.map((doc) => doc.id).sort()).toEqual(
      [
        `subject-visitor:flyer:${derived.a!}`,
        `subject-visitor:flyer:${derived.c!}`,
        `subject-visitor:poster:${derived.a!}`,
        `subject-visitor:poster:${derived.b!}`,
      ].sort(),
    );
    expect(subjects.every((doc) => doc.derived === true)).toBe(true);
    const links = goalDocs(store).filter((doc) => doc.kind === 'visitor-cookie');
    expect(links.map((doc) => [doc.identity, doc.derived])).toEqual([
      [derived.a!, true],
      [derived.e!, true],
      [derived.c!, true],
    ]);
    for (const goal of GOALS) {
      const summary = (await store.goals.summaries.read(goal.name))?.doc;
      expect(summary).toMatchObject({ pending: [], people_all_time: goal.name === 'signup' ? 4 : 2 });
    }
  });

  it.each([
    ["the goals'", (run: Store, dieAfter: number) => migrated(run, dyingGoals(run.goals, dieAfter))],
    ["the subjects'", (run: Store, dieAfter: number) => migrated(run, run.goals, 100, dyingSubjects(run.subjects, dieAfter))],
  ])('killed after any of %s writes, then run again, leaves what a clean run leaves', async (_, dyingRun) => {
    const clean = await kept();
    await migrated(clean);
    const expected = goalDocs(clean);
    for (let dieAfter = 1; ; dieAfter += 1) {
      const run = await kept();
      const died = await dyingRun(run, dieAfter).then(
        () => false,
        () => true,
      );
      expect(await migrated(run)).toBe(true);
      expect(goalDocs(run), `killed after write ${dieAfter}`).toEqual(expected);
      if (!died) break;
    }
  });
});
