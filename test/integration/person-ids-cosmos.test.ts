import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cosmosStore } from '../../adapters/cosmos/store';
import type { Container } from '@azure/cosmos';
import { derivePersonId } from '../../shared/core/identity/person-id';
import type { Store, VisitorRecord } from '../../shared/core/store';
import { migrationStatus, type Migrations } from '../../shared/core/store/migrations';
import { PERSON_IDS_MIGRATION, type PersonMoved, type PersonMoves } from '../../shared/core/store/person-moves';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { personIdsMigration } from '../../shared/fold/migrations/person-ids';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { keepHits, keepMemory } from '../../shared/keep/keep';
import { personSwitch } from '../../shared/keep/switched';
import { hex, queuedHit } from '../support/counting';
import { containerOf } from '../support/cosmos';
import { testEnv } from '../support/env';

const RECORDS = 5;
const NOW = new Date('2026-12-06T10:00:00Z');
const clock = { now: () => NOW };
const derive = (old: string) => derivePersonId(old, 1);

let container: Container;

beforeAll(async () => {
  // A database of this test's own on the shared local Cosmos server; each case a site of its own.
  container = await containerOf(testEnv({ COSMOS_DATABASE: `person-ids-${randomUUID().slice(0, 12)}` }));
});

const storeOf = (site: string) => cosmosStore(container, { settleSeconds: 1, scope: { name: site, prefix: `${site}|` } });

const record = (n: number): VisitorRecord => ({
  id: hex(`person ${n}`),
  pk: VISITORS_PK,
  kind: 'visitor-record',
  first_seen: '2026-12-01',
  last_seen: '2026-12-0' + String(1 + (n % 5)),
  days_seen: 1 + (n % 5),
  recent_days: ['2026-12-01'],
  who: n === 0 ? 'scanners' : 'people',
  counted_on: n === 0 ? null : '2026-12-01',
  moved_days: [],
  counts_changed_at: '2026-12-01T10:00:00.000Z',
  ttl: n === 0 ? 7_776_000 : -1,
});

async function seeded(site: string) {
  const store = storeOf(site);
  for (let n = 0; n < RECORDS; n += 1) expect(await store.records.create(record(n))).toBe('created');
  return store;
}

/** The migration's ports, dying after write `dieAfter` of any of them. */
function ported(store: Store, dieAfter = Number.POSITIVE_INFINITY) {
  let writes = 0;
  const landed = async <T>(write: Promise<T>) => {
    const result = await write;
    writes += 1;
    if (writes === dieAfter) throw new Error(`died after write ${writes}`);
    return result;
  };
  const moves: PersonMoves = {
    ...store.personMoves,
    at: {
      read: (id) => store.personMoves.at.read(id),
      create: (doc) => landed(store.personMoves.at.create(doc)),
      replace: (doc, etag) => landed(store.personMoves.at.replace(doc, etag)),
    },
  };
  const progress: Migrations = {
    read: (name) => store.migrations.read(name),
    create: (doc) => landed(store.migrations.create(doc)),
    replace: (doc, etag) => landed(store.migrations.replace(doc, etag)),
  };
  return { progress, migration: personIdsMigration(moves, derive, clock), writes: () => writes };
}

const run = { now: NOW, limit: 2, more: () => Promise.resolve(true) };

async function kept(store: ReturnType<typeof storeOf>) {
  const docs = await store.documents.query<VisitorRecord | PersonMoved>(
    "SELECT * FROM c WHERE c.kind = 'visitor-record' OR c.kind = 'person-moved'",
    [],
    VISITORS_PK,
  );
  // Which slice moved a record depends on the order the query answered in, not on what was moved.
  const plain = docs.map((doc) => (doc.kind === 'person-moved' ? { ...doc, slice: 0 } : doc));
  return plain.sort((a, b) => (a.id < b.id ? -1 : 1));
}

async function countsOf(store: Store) {
  return Promise.all(['2026-12-01', '2026-12-02'].map((day) => store.recordCounts.countsOn(day)));
}

describe('the person-ids migration on the local Cosmos server', () => {
  it('leaves what a clean run leaves when it dies after any one of its writes and runs again', async () => {
    const clean = await seeded('clean');
    const before = await countsOf(clean);
    const cleanRun = ported(clean);
    expect(await runMigrations(cleanRun.progress, [cleanRun.migration], run)).toBe(true);
    const expected = await kept(clean);
    expect(await countsOf(clean)).toEqual(before);
    expect(expected.filter((doc) => doc.kind === 'visitor-record').map((doc) => doc.id)).toEqual(
      (await Promise.all(Array.from({ length: RECORDS }, (_, n) => derive(record(n).id)))).sort(),
    );
    for (let dieAfter = 1; dieAfter <= cleanRun.writes(); dieAfter += 1) {
      const store = await seeded(`died-${dieAfter}`);
      const killed = ported(store, dieAfter);
      await expect(runMigrations(killed.progress, [killed.migration], run)).rejects.toThrow(`died after write ${dieAfter}`);
      const again = ported(store);
      expect(await runMigrations(again.progress, [again.migration], run)).toBe(true);
      expect(await kept(store), `died after write ${dieAfter}`).toEqual(expected);
      expect(await countsOf(store)).toEqual(before);
      expect(await migrationStatus(store.migrations, PERSON_IDS_MIGRATION)).toEqual({ done: true, from: '2026-12-06' });
    }
  });

  it('keeps every sighting once when keep-hits of the old ids run beside the migration and after it', async () => {
    const store = await seeded('together');
    const keep = { store, clock, ...keepMemory(), personSwitch: personSwitch(store.migrations, store.personMoves.at, derive) };
    const hits = Array.from({ length: RECORDS }, (_, n) => ({ ...queuedHit('2026-12-06T09:00:00.000Z'), person: record(n).id }));
    const migrate = ported(store);
    const [migrated, ...outcomes] = await Promise.all([
      runMigrations(migrate.progress, [migrate.migration], run),
      ...hits.map((hit) => keepHits({ v: 1, id: randomUUID(), hits: [hit] }, keep)),
    ]);
    expect(migrated).toBe(true);
    // And once it is done, a message still carrying the old ids (a retry, a poison replay) reaches the moved records.
    const late = await keepHits({ v: 1, id: randomUUID(), hits: hits.map((hit) => ({ ...hit, at: '2026-12-05T09:00:00.000Z' })) }, keep);
    expect([...outcomes, late].every((outcome) => outcome.ok)).toBe(true);
    const records = (await kept(store)).filter((doc): doc is VisitorRecord => doc.kind === 'visitor-record');
    expect(records).toHaveLength(RECORDS);
    expect(records.every((doc) => doc.derived === true && doc.last_seen === '2026-12-06')).toBe(true);
    expect(records.map((doc) => doc.days_seen).sort()).toEqual(Array.from({ length: RECORDS }, (_, n) => 3 + (n % 5)).sort());
  });
});
