import { describe, expect, it } from 'vitest';
import { MemoryDocuments } from '../../adapters/memory/documents';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import { migrationStatus, type Migrations } from '../../shared/core/store/migrations';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { fold } from '../../shared/fold/fold';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { tallyMigration, type Item, type ItemPorts, type Tally } from '../support/tally-migration';

const ITEMS = 23;
const SUM = (ITEMS * (ITEMS - 1)) / 2;
const NOW = new Date('2026-12-06T10:00:00Z');

function filled(): MemoryDocuments {
  const documents = new MemoryDocuments();
  for (let n = 0; n < ITEMS; n += 1) {
    const item: Item = { id: `old-${String(n).padStart(3, '0')}`, pk: 'items', kind: 'test-item', value: n };
    documents.create(item);
  }
  return documents;
}

/** Every write counted; the process "dies" right after write number `dieAfter` (the write lands). */
function dying(documents: MemoryDocuments, dieAfter = Number.POSITIVE_INFINITY) {
  let writes = 0;
  const landed = <T>(value: T) => {
    writes += 1;
    if (writes === dieAfter) throw new Error(`died after write ${writes}`);
    return Promise.resolve(value);
  };
  const migrations: Migrations = {
    read: (name) => Promise.resolve(documents.read(`visitors`, `migration:${name}`)),
    create: (doc) => landed(documents.create(doc)),
    replace: (doc, etag) => landed(documents.replace(doc, etag)),
  };
  const ports: ItemPorts = {
    oldAfter: (after, limit) =>
      Promise.resolve(
        documents
          .query<Item>((doc) => doc.kind === 'test-item' && doc.id.startsWith('old-') && (after === null || doc.id > after), 'items')
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .slice(0, limit),
      ),
    items: {
      read: (id) => Promise.resolve(documents.read<Item>('items', id)),
      create: (doc) => landed(documents.create(doc)),
      replace: (doc, etag) => landed(documents.replace(doc, etag)),
    },
    tally: {
      read: () => Promise.resolve(documents.read<Tally>('items', 'tally')),
      create: (doc) => landed(documents.create(doc)),
      replace: (doc, etag) => landed(documents.replace(doc, etag)),
    },
  };
  return { migrations, migration: tallyMigration(ports), writes: () => writes };
}

/** A run of at most `slices` slices. */
const run = (slices: number) => {
  let left = slices;
  return { now: NOW, limit: 5, more: () => Promise.resolve(left-- > 0) };
};

const moved = (documents: MemoryDocuments) => ({
  items: documents
    .query<Item>((doc) => doc.kind === 'test-item', 'items')
    .map((doc) => doc.id)
    .sort(),
  total: documents.read<Tally>('items', 'tally')?.doc.total,
});

async function toTheEnd(documents: MemoryDocuments): Promise<number> {
  for (let runs = 1; runs <= 50; runs += 1) {
    const { migrations, migration } = dying(documents);
    if (await runMigrations(migrations, [migration], run(2))) return runs;
  }
  throw new Error('the migration never ended');
}

describe('the migration runner', () => {
  it('moves everything in bounded slices over several runs, and says when it is done and from which day', async () => {
    const documents = filled();
    const { migrations } = dying(documents);
    expect(await migrationStatus(migrations, 'test-tally')).toEqual({ done: false, begun: false });
    const first = dying(documents);
    expect(await runMigrations(first.migrations, [first.migration], run(2))).toBe(false);
    expect(await migrationStatus(migrations, 'test-tally')).toEqual({ done: false, begun: true });
    expect(moved(documents).items.filter((id) => id.startsWith('new-'))).toHaveLength(10);
    expect(await toTheEnd(documents)).toBe(2);
    expect(moved(documents)).toEqual({
      items: [
        ...Array.from({ length: ITEMS }, (_, n) => `new-${String(n).padStart(3, '0')}`),
        ...Array.from({ length: ITEMS }, (_, n) => `old-${String(n).padStart(3, '0')}`),
      ],
      total: SUM,
    });
    expect(await migrationStatus(migrations, 'test-tally')).toEqual({ done: true, from: '2026-12-06' });
    // Done is done: a later run takes no slice and writes nothing.
    const after = dying(documents);
    expect(await runMigrations(after.migrations, [after.migration], run(5))).toBe(true);
    expect(after.writes()).toBe(0);
  });

  it('leaves what a clean run leaves when the run dies after any one of its writes and runs again', async () => {
    const clean = filled();
    const counted = dying(clean);
    expect(await runMigrations(counted.migrations, [counted.migration], run(100))).toBe(true);
    const writes = counted.writes();
    expect(writes).toBeGreaterThan(ITEMS);
    for (let dieAfter = 1; dieAfter <= writes; dieAfter += 1) {
      const documents = filled();
      const killed = dying(documents, dieAfter);
      await expect(runMigrations(killed.migrations, [killed.migration], run(100))).rejects.toThrow(`died after write ${dieAfter}`);
      await toTheEnd(documents);
      expect(moved(documents), `died after write ${dieAfter}`).toEqual(moved(clean));
    }
  });

  it('adds once when two runs take the same slices at the same time', async () => {
    const documents = filled();
    let lost = 0;
    for (let round = 0; round < 20 && (await migrationStatus(dying(documents).migrations, 'test-tally')).done === false; round += 1) {
      const [a, b] = [dying(documents), dying(documents)];
      const outcomes = await Promise.allSettled([
        runMigrations(a.migrations, [a.migration], run(1)),
        runMigrations(b.migrations, [b.migration], run(1)),
      ]);
      lost += outcomes.filter((outcome) => outcome.status === 'rejected').length;
    }
    // Each round both took the same slice, and one of them lost the race on its write.
    expect(lost).toBeGreaterThan(0);
    expect(moved(documents).total).toBe(SUM);
    expect(await migrationStatus(dying(documents).migrations, 'test-tally')).toMatchObject({ done: true });
  });

  it('runs from the timer, a slice at a time within the run, each migration once the one before it is done', async () => {
    const store = memoryStore(filled());
    const clock = fixedClock(NOW);
    const { migration } = dying(store.documents);
    const second = { name: 'test-second', slice: () => Promise.resolve(null) };
    const budget = { ...TIMER_FOLD_BUDGET, recordsASlice: 5 };
    const folded = () => fold({ store, clock, rules: scanRules(10, 60), lateDays: 7, budget, migrations: [migration, second] });
    expect(await folded()).toMatchObject({ ok: true });
    expect(await migrationStatus(store.migrations, 'test-tally')).toEqual({ done: true, from: '2026-12-06' });
    expect(await migrationStatus(store.migrations, 'test-second')).toEqual({ done: true, from: '2026-12-06' });
    expect(moved(store.documents).total).toBe(SUM);
    expect(store.documents.read('visitors', 'migration:test-tally')?.doc).toMatchObject({ slices: 5, position: null });
  });
});
