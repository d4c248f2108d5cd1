import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cosmosStore } from '../../adapters/cosmos/store';
import type { CosmosDocuments } from '../../adapters/cosmos/documents';
import { migrationStatus, type Migrations } from '../../shared/core/store/migrations';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { containerOf } from '../support/cosmos';
import { testEnv } from '../support/env';
import { tallyMigration, type Item, type ItemPorts, type Tally } from '../support/tally-migration';

const ITEMS = 7;
const SUM = (ITEMS * (ITEMS - 1)) / 2;
const NOW = new Date('2026-12-06T10:00:00Z');

let documents: CosmosDocuments;
let migrations: Migrations;

beforeAll(async () => {
  // A database of this test's own on the shared local Cosmos server.
  const container = await containerOf(testEnv({ COSMOS_DATABASE: `migrations-${randomUUID().slice(0, 12)}` }));
  const store = cosmosStore(container, { settleSeconds: 1 });
  documents = store.documents;
  migrations = store.migrations;
});

/** Items in a partition of their own, and the ports the test migration writes through, dying after write `dieAfter`. */
async function rig(pk: string, dieAfter = Number.POSITIVE_INFINITY) {
  for (let n = 0; n < ITEMS; n += 1) {
    const item: Item = { id: `old-${n}`, pk, kind: 'test-item', value: n };
    await documents.create(item);
  }
  return ported(pk, dieAfter);
}

function ported(pk: string, dieAfter = Number.POSITIVE_INFINITY) {
  let writes = 0;
  const landed = async <T>(write: Promise<T>) => {
    const result = await write;
    writes += 1;
    if (writes === dieAfter) throw new Error(`died after write ${writes}`);
    return result;
  };
  const ports: ItemPorts = {
    oldAfter: (after, limit) =>
      documents
        .query<Item>(
          "SELECT * FROM c WHERE c.kind = 'test-item' AND STARTSWITH(c.id, 'old-') AND c.id > @after ORDER BY c.id",
          [{ name: '@after', value: after ?? '' }],
          pk,
        )
        .then((items) => items.slice(0, limit)),
    items: {
      read: (id) => documents.read<Item>(pk, id),
      create: (doc) => landed(documents.create(doc)),
      replace: (doc, etag) => landed(documents.replace(doc, etag)),
    },
    tally: {
      read: () => documents.read<Tally>(pk, 'tally'),
      create: (doc) => landed(documents.create(doc)),
      replace: (doc, etag) => landed(documents.replace(doc, etag)),
    },
  };
  const progress: Migrations = {
    read: (name) => migrations.read(name),
    create: (doc) => landed(migrations.create(doc)),
    replace: (doc, etag) => landed(migrations.replace(doc, etag)),
  };
  return { progress, migration: tallyMigration(ports, `tally-${pk}`, pk), writes: () => writes };
}

const run = (slices: number) => {
  let left = slices;
  return { now: NOW, limit: 3, more: () => Promise.resolve(left-- > 0) };
};

async function result(pk: string) {
  const items = await documents.query<Item>("SELECT * FROM c WHERE c.kind = 'test-item'", [], pk);
  return { items: items.map((item) => item.id).sort(), total: (await documents.read<Tally>(pk, 'tally'))?.doc.total };
}

async function toTheEnd(pk: string) {
  for (let runs = 0; runs < 20; runs += 1) {
    const { progress, migration } = ported(pk);
    if (await runMigrations(progress, [migration], run(1))) return;
  }
  throw new Error('the migration never ended');
}

describe('the migration runner on the local Cosmos server', () => {
  it('leaves what a clean run leaves when it dies after any one of its writes and runs again', async () => {
    const clean = await rig('clean');
    expect(await runMigrations(clean.progress, [clean.migration], run(100))).toBe(true);
    const expected = await result('clean');
    expect(expected.total).toBe(SUM);
    expect(expected.items.filter((id) => id.startsWith('new-'))).toHaveLength(ITEMS);
    for (let dieAfter = 1; dieAfter <= clean.writes(); dieAfter += 1) {
      const pk = `died-${dieAfter}`;
      const killed = await rig(pk, dieAfter);
      await expect(runMigrations(killed.progress, [killed.migration], run(100))).rejects.toThrow(`died after write ${dieAfter}`);
      await toTheEnd(pk);
      expect(await result(pk), `died after write ${dieAfter}`).toEqual(expected);
      expect(await migrationStatus(migrations, `tally-${pk}`)).toEqual({ done: true, from: '2026-12-06' });
    }
  });

  it('adds once when two runs take the same slices at the same time: one loses the If-Match race and stops', async () => {
    await rig('together');
    let lost = 0;
    for (let round = 0; round < 20 && !(await migrationStatus(migrations, 'tally-together')).done; round += 1) {
      const [a, b] = [ported('together'), ported('together')];
      const outcomes = await Promise.allSettled([
        runMigrations(a.progress, [a.migration], run(1)),
        runMigrations(b.progress, [b.migration], run(1)),
      ]);
      lost += outcomes.filter((outcome) => outcome.status === 'rejected').length;
    }
    expect(lost).toBeGreaterThan(0);
    expect((await result('together')).total).toBe(SUM);
  });
});
