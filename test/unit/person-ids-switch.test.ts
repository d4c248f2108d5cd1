import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { derivePersonId } from '../../shared/core/identity/person-id';
import type { QueuedHit } from '../../shared/core/message';
import type { VisitorRecord } from '../../shared/core/store';

type Store = ReturnType<typeof memoryStore>;
import { PERSON_IDS_MIGRATION, type PersonMoves } from '../../shared/core/store/person-moves';
import { migrationStatus } from '../../shared/core/store/migrations';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { fold } from '../../shared/fold/fold';
import { personIdsMigration } from '../../shared/fold/migrations/person-ids';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { keepHits, keepMemory } from '../../shared/keep/keep';
import { personSwitch, type PersonSwitch } from '../../shared/keep/switched';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { queuedHit } from '../support/counting';
import { keepImported } from '../../shared/keep/imports';
import { registerOf } from '../../shared/core/sketch';
import type { Fact } from '../../shared/core/store/facts';

const derive = (old: string) => derivePersonId(old, 1);
const DAYS = ['2026-12-01', '2026-12-02', '2026-12-03'];

const clockAt = (at: { now: Date }) => ({ now: () => at.now });

/** A keeper of the store, switched when `sw` is given, as keep-hits would be with the migration registered. */
function keeperOf(store: Store, at: { now: Date }, sw?: PersonSwitch) {
  const deps = { store, clock: clockAt(at), ...keepMemory(), ...(sw === undefined ? {} : { personSwitch: sw }) };
  return async (hits: QueuedHit[]) => {
    const outcome = await keepHits({ v: 1, id: crypto.randomUUID(), hits }, deps);
    if (!outcome.ok) throw new Error(outcome.reason);
  };
}

async function foldOf(store: Store, at: { now: Date }, migrate: boolean) {
  const migrations = migrate ? [personIdsMigration(store.personMoves, derive, clockAt(at))] : [];
  const outcome = await fold({
    store,
    clock: clockAt(at),
    rules: scanRules(10, 60),
    lateDays: 7,
    migrations,
    budget: { ...TIMER_FOLD_BUDGET, recordsASlice: 2 },
  });
  if (!outcome.ok) throw new Error(outcome.reason);
}

const records = (store: Store) => store.documents.query<VisitorRecord>((doc) => doc.kind === 'visitor-record');

/** What a record counts by, whatever its id. */
const content = ({ id: _id, derived: _derived, counts_changed_at: _at, ...rest }: VisitorRecord) => rest;

const hit = (day: string, person: string, more: Parameters<typeof queuedHit>[1] = {}) =>
  queuedHit(`${day}T10:00:00.000Z`, { person, ...more });

/** Days 1 and 2 kept and folded, then day 3, in `store`; `between` runs after day 2's fold. */
async function history(store: Store, sw: PersonSwitch | undefined, between: (at: { now: Date }) => Promise<void>) {
  const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
  const keep = keeperOf(store, at, sw);
  await keep([hit(DAYS[0]!, 'a'), hit(DAYS[0]!, 'b'), hit(DAYS[0]!, 'bot', { bot: true })]);
  await foldOf(store, at, false);
  at.now = new Date(`${DAYS[1]}T12:00:00.000Z`);
  await keep([hit(DAYS[1]!, 'a'), hit(DAYS[1]!, 'c')]);
  await foldOf(store, at, false);
  await between(at);
  at.now = new Date(`${DAYS[2]}T12:00:00.000Z`);
  // A returning person, a new one, and a replay of day 2 carrying an old id.
  await keep([hit(DAYS[2]!, 'a'), hit(DAYS[2]!, 'd')]);
  await keep([hit(DAYS[1]!, 'b')]);
  await foldOf(store, at, false);
  at.now = new Date(`${DAYS[2]}T12:30:00.000Z`);
  await foldOf(store, at, false);
}

async function figures(store: Store) {
  const summary = await store.visitorsSummary.read();
  const counts = await Promise.all(DAYS.map((day) => store.recordCounts.countsOn(day)));
  return { summary: summary?.doc, counts };
}

describe('the dated switch of person ids', () => {
  it('moves every record to its derived id once, in slices, and the counts go on as if nothing moved', async () => {
    const control = memoryStore();
    await history(control, undefined, () => Promise.resolve());
    const moved = memoryStore();
    const sw = personSwitch(moved.migrations, moved.personMoves.at, derive);
    await history(moved, sw, async (at) => {
      at.now = new Date(`${DAYS[1]}T13:00:00.000Z`);
      await foldOf(moved, at, true);
      expect(await migrationStatus(moved.migrations, PERSON_IDS_MIGRATION)).toEqual({ done: true, from: DAYS[1] });
    });
    expect(await figures(moved)).toEqual(await figures(control));
    expect((await figures(moved)).summary?.people_all_time).toBe(4);
    const expected = await Promise.all(records(control).map(async (record) => ({ ...content(record), id: await derive(record.id) })));
    const found = records(moved).map((record) => ({ ...content(record), id: record.id }));
    expect(found.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(expected.sort((x, y) => (x.id < y.id ? -1 : 1)));
    expect(records(moved).every((record) => record.derived === true)).toBe(true);
  });

  it.each([
    ['having read it begun, moves the record itself', true],
    ['having read it not begun, writes the old record and a later slice moves it', false],
  ])('a keep between the migration reading a record and replacing it, %s', async (_, knows) => {
    const store = memoryStore();
    const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
    await keeperOf(store, at)([hit(DAYS[0]!, 'a')]);
    const real = personSwitch(store.migrations, store.personMoves.at, derive);
    const keep = keeperOf(store, at, knows ? real : { ...real, begun: () => Promise.resolve(false) });
    let raced = 0;
    const moves: PersonMoves = {
      ...store.personMoves,
      at: {
        ...store.personMoves.at,
        replace: async (doc, etag) => {
          if (raced++ === 0) await keep([hit(DAYS[0]!, 'a', { path: '/later' }), hit(DAYS[0]!, 'a'), hit(DAYS[1]!, 'a')]);
          return store.personMoves.at.replace(doc, etag);
        },
      },
    };
    const run = { now: at.now, limit: 10, more: () => Promise.resolve(true) };
    expect(await runMigrations(store.migrations, [personIdsMigration(moves, derive, clockAt(at))], run)).toBe(true);
    const [record, ...more] = records(store);
    expect(more).toEqual([]);
    expect(record).toMatchObject({ id: await derive(queuedHit(DAYS[0]!, { person: 'a' }).person!), days_seen: 2, derived: true });
  });

  it('a keep between the marker and its new record creates the record from the marker, and the migration adds nothing over it', async () => {
    const store = memoryStore();
    const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
    await keeperOf(store, at)([hit(DAYS[0]!, 'a')]);
    const keep = keeperOf(store, at, personSwitch(store.migrations, store.personMoves.at, derive));
    let raced = 0;
    const moves: PersonMoves = {
      ...store.personMoves,
      at: {
        ...store.personMoves.at,
        create: async (doc) => {
          if (raced++ === 0) await keep([hit(DAYS[1]!, 'a')]);
          return store.personMoves.at.create(doc);
        },
      },
    };
    const run = { now: at.now, limit: 10, more: () => Promise.resolve(true) };
    expect(await runMigrations(store.migrations, [personIdsMigration(moves, derive, clockAt(at))], run)).toBe(true);
    const [record, ...more] = records(store);
    expect(more).toEqual([]);
    expect(record).toMatchObject({ days_seen: 2, first_seen: DAYS[0], last_seen: DAYS[1], derived: true });
  });

  it('a record a keep creates as the migration ends, having read it not begun, is moved by that keep', async () => {
    const store = memoryStore();
    const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
    let begun = false;
    const real = personSwitch(store.migrations, store.personMoves.at, derive);
    // The status this keep read before the migration began, and what it reads after its write.
    const stale: PersonSwitch = { ...real, begun: () => Promise.resolve(begun) };
    const keep = keeperOf(store, at, stale);
    const run = { now: at.now, limit: 10, more: () => Promise.resolve(true) };
    expect(await runMigrations(store.migrations, [personIdsMigration(store.personMoves, derive, clockAt(at))], run)).toBe(true);
    const original = store.personMoves.at.create;
    store.personMoves.at.create = async (doc) => {
      begun = true;
      return original(doc);
    };
    await keep([hit(DAYS[0]!, 'late')]);
    const [record, ...more] = records(store);
    expect(more).toEqual([]);
    expect(record).toMatchObject({ id: await derive(queuedHit(DAYS[0]!, { person: 'late' }).person!), derived: true });
  });

  it('keeps a visitor never seen before under the derived id once the migration has begun', async () => {
    const store = memoryStore();
    const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
    const run = { now: at.now, limit: 10, more: () => Promise.resolve(true) };
    await runMigrations(store.migrations, [personIdsMigration(store.personMoves, derive, clockAt(at))], run);
    await keeperOf(store, at, personSwitch(store.migrations, store.personMoves.at, derive))([hit(DAYS[0]!, 'new')]);
    expect(records(store).map((record) => record.id)).toEqual([await derive(queuedHit(DAYS[0]!, { person: 'new' }).person!)]);
  });

  it('keeps a hit the ingest derived under its own id, and maps only the person hash beside it in the same message', async () => {
    const store = memoryStore();
    const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
    const run = { now: at.now, limit: 10, more: () => Promise.resolve(true) };
    await runMigrations(store.migrations, [personIdsMigration(store.personMoves, derive, clockAt(at))], run);
    const old = hit(DAYS[0]!, 'old');
    const ingested = await derive(hit(DAYS[0]!, 'new').person!);
    await keeperOf(
      store,
      at,
      personSwitch(store.migrations, store.personMoves.at, derive),
    )([old, { ...hit(DAYS[0]!, 'new'), person: ingested, person_derived: true }]);
    const ids = records(store).map((record) => [record.id, record.derived]);
    expect(ids.sort()).toEqual(
      [
        [await derive(old.person!), true],
        [ingested, true],
      ].sort(),
    );
  });

  /** The people a message's facts name: goal actions, subject scans and the visitor-days' sketches' registers. */
  const named = (store: Store) =>
    store.documents
      .query<Fact>((doc) => doc.kind === 'fact')
      .map((fact) => ({
        actions: (fact.actions ?? []).map((action) => action.person).sort(),
        scans: fact.scans.map((scan) => scan.identity).sort(),
        sketch: fact.visitor_days.map((part) => part.people_sketch),
        news: fact.visitor_days.map((part) => part.new_sketch),
      }));
  const sketchOf = (...ids: string[]) => {
    const registers: Record<string, number> = {};
    for (const [register, rank] of ids.map(registerOf)) registers[register] = Math.max(registers[register] ?? 0, rank);
    return registers;
  };

  it.each([
    ['keep-hits', (message: Parameters<typeof keepHits>[0], deps: Parameters<typeof keepImported>[1]) => keepHits(message, deps)],
    ['keep-imports', (message: Parameters<typeof keepHits>[0], deps: Parameters<typeof keepImported>[1]) => keepImported(message, deps)],
  ])('once the migration has begun, %s names each person in its facts by the derived id, as their record', async (_, keeper) => {
    const store = memoryStore();
    const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
    await keeperOf(store, at)([hit(DAYS[0]!, 'a')]);
    const run = { now: at.now, limit: 10, more: () => Promise.resolve(true) };
    await runMigrations(store.migrations, [personIdsMigration(store.personMoves, derive, clockAt(at))], run);
    const old = hit(DAYS[1]!, 'a', { subject: 'poster' });
    const ingested = await derive(hit(DAYS[1]!, 'b').person!);
    const sw = personSwitch(store.migrations, store.personMoves.at, derive);
    const deps = { store, clock: clockAt(at), ...keepMemory(), personSwitch: sw };
    const message = {
      v: 1 as const,
      id: crypto.randomUUID(),
      hits: [old, { ...hit(DAYS[1]!, 'b'), person: ingested, person_derived: true as const }],
    };
    expect(await keeper(message, deps)).toMatchObject({ ok: true });
    const a = await derive(old.person!);
    const [fact, ...more] = named(store).filter((one) => one.actions.includes(ingested));
    expect(more).toEqual([]);
    expect(fact!.actions).toEqual([a, ingested].sort());
    expect(fact!.scans).toEqual([a]);
    expect(fact!.sketch).toEqual([sketchOf(a), sketchOf(ingested)]);
    // a was first seen the day before, so only b is new.
    expect(fact!.news).toEqual([undefined, sketchOf(ingested)]);
    expect(
      records(store)
        .map((record) => record.id)
        .sort(),
    ).toEqual([a, ingested].sort());
  });

  it('before the migration begins, the facts keep the ids the message holds', async () => {
    const store = memoryStore();
    const at = { now: new Date(`${DAYS[0]}T12:00:00.000Z`) };
    const old = hit(DAYS[0]!, 'a', { subject: 'poster' });
    await keeperOf(store, at, personSwitch(store.migrations, store.personMoves.at, derive))([old]);
    expect(named(store)).toEqual([
      { actions: [old.person], scans: [old.person], sketch: [sketchOf(old.person!)], news: [sketchOf(old.person!)] },
    ]);
  });
});
