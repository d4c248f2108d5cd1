import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Container } from '@azure/cosmos';
import { cosmosStore } from '../../adapters/cosmos/store';
import { CosmosDocuments } from '../../adapters/cosmos/documents';
import type { GoalsStore } from '../../shared/core/store/goals';
import { derivePersonId } from '../../shared/core/identity/person-id';
import type { Goal } from '../../shared/core/events/events';
import type { GoalAction } from '../../shared/core/store/facts';
import { foldGoals } from '../../shared/fold/goals';
import { claimedVisitor } from '../../shared/core/subjects/visitor';
import { VISITOR_COOKIES_PK, visitorCookieId, type VisitorCookieLink } from '../../shared/core/store/subjects';
import { personIdsMigration } from '../../shared/fold/migrations/person-ids';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { containerOf } from '../support/cosmos';
import { testEnv } from '../support/env';
import { dyingGoals } from '../support/dying';

const NOW = new Date('2026-12-06T10:00:00Z');
const derive = (old: string) => derivePersonId(old, 1);
const GOALS: Goal[] = [{ name: 'signup', events: ['signup'], paths: [] }];

let container: Container;

beforeAll(async () => {
  // A database of this test's own on the shared local Cosmos server; each run a site of its own.
  container = await containerOf(testEnv({ COSMOS_DATABASE: `person-goals-${randomUUID().slice(0, 12)}` }));
});

const action = (person: string, at: string, derived?: true): GoalAction => ({
  person,
  at,
  events: ['signup'],
  paths: [],
  ...(derived ? { derived } : {}),
});

async function kept() {
  const site = `s${randomUUID().slice(0, 8)}`;
  const scope = { name: site, prefix: `${site}|` };
  const store = cosmosStore(container, { settleSeconds: 1, scope });
  await foldGoals(store.goals, GOALS, [
    action('a'.repeat(32), '2026-12-01T10:00:00.000Z'),
    action('a'.repeat(32), '2026-12-02T10:00:00.000Z'),
    action(await derive('c'.repeat(32)), '2026-12-03T09:00:00.000Z', true),
  ]);
  await foldGoals(dyingGoals(store.goals, 1), GOALS, [action('e'.repeat(32), '2026-12-03T12:00:00.000Z')]).catch(() => undefined);
  for (const person of ['a', 'b'])
    await store.subjects.visitors.create(claimedVisitor('poster', person.repeat(32), '2026-12-01T10:00:00.000Z'));
  const link: VisitorCookieLink = {
    id: visitorCookieId('1'.repeat(32)),
    pk: VISITOR_COOKIES_PK,
    kind: 'visitor-cookie',
    identity: 'b'.repeat(32),
    ttl: 100,
  };
  await store.subjects.cookies.create(link);
  return { store, documents: new CosmosDocuments(container, scope) };
}

const goalDocs = async (documents: CosmosDocuments) =>
  [
    ...(await documents.query<Record<string, unknown>>('SELECT * FROM c', [], 'goal:signup')),
    ...(await documents.query<Record<string, unknown>>('SELECT * FROM c', [], 'subject:poster')),
    ...(await documents.query<Record<string, unknown>>('SELECT * FROM c', [], VISITOR_COOKIES_PK)).map((doc): Record<string, unknown> => ({
      id: `${String(doc.id)}>${String(doc.identity)}`,
    })),
  ]
    .filter((doc) => doc.kind !== 'goal-summary')
    .map((doc) => String(doc.id))
    .sort();

async function migrated(rig: Awaited<ReturnType<typeof kept>>, goals: GoalsStore = rig.store.goals): Promise<boolean> {
  const migration = personIdsMigration(
    rig.store.personMoves,
    derive,
    { now: () => NOW },
    { store: goals, names: () => ['signup'], subjects: rig.store.subjects },
  );
  let left = 50;
  return runMigrations(rig.store.migrations, [migration], { now: NOW, limit: 2, more: () => Promise.resolve(left-- > 0) });
}

describe("the person-ids migration of the goals' and subjects' documents on the local Cosmos server", () => {
  it('moves each to its derived id once, and killed after any write then run again leaves the same documents', async () => {
    const [a, b, c, e] = await Promise.all(['a', 'b', 'c', 'e'].map((letter) => derive(letter.repeat(32))));
    const clean = await kept();
    expect(await migrated(clean)).toBe(true);
    const expected = [
      `goal-day:signup:${a!}:2026-12-01`,
      `goal-day:signup:${a!}:2026-12-02`,
      `goal-day:signup:${c!}:2026-12-03`,
      `goal-day:signup:${e!}:2026-12-03`,
      `goal-person:signup:${a!}`,
      `goal-person:signup:${c!}`,
      `goal-person:signup:${e!}`,
      `subject-visitor:poster:${a!}`,
      `subject-visitor:poster:${b!}`,
      `${visitorCookieId('1'.repeat(32))}>${b!}`,
    ].sort();
    expect(await goalDocs(clean.documents)).toEqual(expected);
    expect((await clean.store.goals.summaries.read('signup'))?.doc).toMatchObject({ people_all_time: 3, pending: [] });
    for (let dieAfter = 1; ; dieAfter += 1) {
      const run = await kept();
      const died = await migrated(run, dyingGoals(run.store.goals, dieAfter)).then(
        () => false,
        () => true,
      );
      expect(await migrated(run)).toBe(true);
      expect(await goalDocs(run.documents), `killed after write ${dieAfter}`).toEqual(expected);
      if (!died) break;
    }
  });
});
