import type { Container, SqlParameter } from '@azure/cosmos';
import Item from '@vercel/cosmosdb-server/lib/account/item';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cosmosContainer, ensureContainer } from '../../adapters/cosmos/client';
import { COSMOS_EMULATOR_KEY, KEPT_IDLE_MS, startCosmos, type CosmosServer } from '../../local/services';
import { createAll } from '../support/counting-cosmos';

interface Doc {
  id: string;
  pk: string;
  kind: 'a-kind' | 'b-kind' | 'c-kind';
  n: number;
  _ts?: number;
}

const KINDS = ['a-kind', 'b-kind', 'c-kind'] as const;
const docsOf = (pk: string, count: number): Doc[] =>
  Array.from({ length: count }, (_, i) => ({ id: `${pk}-${i}`, pk, kind: KINDS[i % 3]!, n: (i * 7) % 11 }));

// Three partitions of different sizes, and one id present in two of them (Cosmos DB keys a document by id and partition).
const seeded: Doc[] = [
  ...docsOf('red', 30),
  ...docsOf('green', 20),
  ...docsOf('blue', 5),
  { id: 'twin', pk: 'red', kind: 'a-kind', n: 100 },
  { id: 'twin', pk: 'green', kind: 'a-kind', n: 200 },
];

let cosmos: CosmosServer;
let container: Container;

beforeAll(async () => {
  // Its clock for `_ts` is moved here, never waited for.
  cosmos = await startCosmos({ movableClock: true });
  container = cosmosContainer({ endpoint: cosmos.endpoint, auth: { key: COSMOS_EMULATOR_KEY }, database: 'partitions', container: 'docs' });
  await ensureContainer(container);
  await createAll(container, seeded);
});

afterAll(() => cosmos?.stop());

const query = async <T = Doc>(sql: string, parameters: SqlParameter[] = [], partitionKey?: string | number): Promise<T[]> =>
  (await container.items.query<T>({ query: sql, parameters }, partitionKey === undefined ? {} : { partitionKey }).fetchAll()).resources;

const ids = (docs: readonly { id: string; pk: string }[]) => docs.map((d) => `${d.pk}/${d.id}`).sort();
const inPartition = (pk: string, docs: readonly Doc[] = seeded) => docs.filter((d) => d.pk === pk);

describe('a query that names a partition key reads only that partition', () => {
  it('answers exactly that partition’s documents, even without a filter on the key', async () => {
    expect(ids(await query('SELECT * FROM c', [], 'red'))).toEqual(ids(inPartition('red')));
    expect(ids(await query('SELECT * FROM c', [], 'blue'))).toEqual(ids(inPartition('blue')));
    expect(await query('SELECT * FROM c', [], 'nowhere')).toEqual([]);
  });

  it('applies the filters, within the partition', async () => {
    const found = await query(
      'SELECT * FROM c WHERE c.kind = @kind AND c.n > @n',
      [
        { name: '@kind', value: 'b-kind' },
        { name: '@n', value: 3 },
      ],
      'green',
    );
    expect(ids(found)).toEqual(ids(inPartition('green').filter((d) => d.kind === 'b-kind' && d.n > 3)));
    expect(found.length).toBeGreaterThan(0);
  });

  it('orders with ORDER BY', async () => {
    const found = await query<{ id: string; n: number }>('SELECT c.id, c.n FROM c ORDER BY c.n DESC', [], 'red');
    expect(found.map((d) => d.n)).toEqual(
      inPartition('red')
        .map((d) => d.n)
        .sort((x, y) => y - x),
    );
    expect(found).toHaveLength(31);
  });

  it('counts, sums and takes MIN and MAX over the partition alone', async () => {
    const red = inPartition('red');
    expect(await query('SELECT VALUE COUNT(1) FROM c', [], 'red')).toEqual([red.length]);
    expect(await query('SELECT VALUE COUNT(1) FROM c WHERE c.kind = "a-kind"', [], 'red')).toEqual([
      red.filter((d) => d.kind === 'a-kind').length,
    ]);
    expect(await query('SELECT VALUE SUM(c.n) FROM c', [], 'red')).toEqual([red.reduce((sum, d) => sum + d.n, 0)]);
    expect(await query('SELECT VALUE MIN(c.n) FROM c', [], 'green')).toEqual([Math.min(...inPartition('green').map((d) => d.n))]);
    expect(await query('SELECT VALUE MAX(c.n) FROM c', [], 'green')).toEqual([200]);
    expect(await query('SELECT VALUE COUNT(1) FROM c', [], 'nowhere')).toEqual([0]);
  });

  it('matches a parameter array with ARRAY_CONTAINS', async () => {
    const kinds = ['a-kind', 'c-kind'];
    const found = await query('SELECT * FROM c WHERE ARRAY_CONTAINS(@kinds, c.kind)', [{ name: '@kinds', value: kinds }], 'blue');
    expect(ids(found)).toEqual(ids(inPartition('blue').filter((d) => kinds.includes(d.kind))));
  });

  it('pages with maxItemCount and a continuation token, in order and without repeats', async () => {
    const pages: Doc[][] = [];
    const iterator = container.items.query<Doc>('SELECT * FROM c ORDER BY c.n ASC', { partitionKey: 'red', maxItemCount: 7 });
    while (iterator.hasMoreResults()) {
      const page = await iterator.fetchNext();
      if (page.resources.length) pages.push(page.resources);
    }
    expect(pages.map((page) => page.length)).toEqual([7, 7, 7, 7, 3]);
    expect(pages.flat().map((d) => d.n)).toEqual(
      inPartition('red')
        .map((d) => d.n)
        .sort((x, y) => x - y),
    );
    expect(ids(pages.flat())).toEqual(ids(inPartition('red')));

    // A new iterator resumed from the first page's token, as a listing's next page is asked for.
    const first = await container.items.query<Doc>('SELECT * FROM c', { partitionKey: 'green', maxItemCount: 8 }).fetchNext();
    expect(first.continuationToken).toBeTruthy();
    const rest = await container.items
      .query<Doc>('SELECT * FROM c', { partitionKey: 'green', maxItemCount: 100, continuationToken: first.continuationToken })
      .fetchNext();
    expect(ids([...first.resources, ...rest.resources])).toEqual(ids(inPartition('green')));
    expect(rest.continuationToken).toBeFalsy();
  });

  it('filters on _ts, the write time in seconds the server sets', async () => {
    const before = (await query<number>('SELECT VALUE MAX(c._ts) FROM c', [], 'blue'))[0]!;
    // _ts counts whole seconds: the next second's writes are the ones after `before`. The server's clock is moved there.
    expect(cosmos.clock!.advance(1)).toBeGreaterThan(before);
    const later = docsOf('blue', 8).slice(5);
    const written = await Promise.all(later.map(async (doc) => (await container.items.create(doc)).resource!));
    expect(written.every((doc) => Number.isInteger(doc._ts) && doc._ts > before)).toBe(true);
    expect(written.every((doc) => typeof doc._etag === 'string' && doc._etag.length > 0)).toBe(true);

    const after = await query('SELECT * FROM c WHERE c._ts > @since', [{ name: '@since', value: before }], 'blue');
    expect(ids(after)).toEqual(ids(later));
    const upTo = await query(
      'SELECT * FROM c WHERE c._ts >= @from AND c._ts <= @to',
      [
        { name: '@from', value: 0 },
        { name: '@to', value: before },
      ],
      'blue',
    );
    expect(ids(upTo)).toEqual(ids(inPartition('blue')));
    for (const doc of later) await container.item(doc.id, doc.pk).delete();
  });

  it('tells a number key from the same digits as text', async () => {
    await container.items.create({ id: 'number', pk: 5 });
    await container.items.create({ id: 'text', pk: '5' });
    expect((await query<{ id: string }>('SELECT c.id FROM c', [], 5)).map((d) => d.id)).toEqual(['number']);
    expect((await query<{ id: string }>('SELECT c.id FROM c', [], '5')).map((d) => d.id)).toEqual(['text']);
    await container.item('number', 5).delete();
    await container.item('text', '5').delete();
  });

  it('still answers 400 for a query the server cannot parse', async () => {
    await expect(query('SELECT * FROM c WHERE', [], 'red')).rejects.toMatchObject({ code: 400 });
  });
});

describe('a query that names a partition key reads no other partition', () => {
  // Every document the server's engine reads is read through Item.read(), as are the few of the account and the
  // collection it reads to answer a call: as published, a COUNT of the five blue documents read all 57 twice (once
  // more for the SDK's query plan); read by partition, it reads the five and a handful of the server's own.
  const itemsRead = async (run: () => Promise<unknown>) => {
    const reads = vi.spyOn(Item.prototype, 'read');
    try {
      await run();
      return reads.mock.calls.length;
    } finally {
      reads.mockRestore();
    }
  };

  it('a COUNT of a small partition reads its documents, not the large one beside it', async () => {
    await query('SELECT VALUE COUNT(1) FROM c', [], 'blue'); // the partitions are indexed by the first such query
    const scoped = await itemsRead(() => query('SELECT VALUE COUNT(1) FROM c', [], 'blue'));
    const all = await itemsRead(() => query('SELECT VALUE COUNT(1) FROM c'));
    expect(scoped).toBeLessThan(inPartition('blue').length + 10);
    expect(all).toBeGreaterThanOrEqual(seeded.length);
  });
});

describe('the query engine, made linear, answers as before', () => {
  it('joins into arrays and leaves out fields a document lacks', async () => {
    await container.items.create({ id: 'tagged', pk: 'violet', tags: ['x', 'y'], nested: { kept: 1 } });
    await container.items.create({ id: 'untagged', pk: 'violet' });
    expect(await query('SELECT VALUE t FROM c JOIN t IN c.tags', [], 'violet')).toEqual(['x', 'y']);
    expect(await query('SELECT c.id, t AS tag FROM c JOIN t IN c.tags WHERE t = "y"', [], 'violet')).toEqual([{ id: 'tagged', tag: 'y' }]);
    const projected = await query<Record<string, unknown>>('SELECT c.id, c.tags, c.nested.kept AS kept FROM c ORDER BY c.id', [], 'violet');
    expect(projected).toEqual([{ id: 'tagged', tags: ['x', 'y'], kept: 1 }, { id: 'untagged' }]);
    expect(await query('SELECT VALUE [c.id, c.missing] FROM c WHERE c.id = "untagged"', [], 'violet')).toEqual([['untagged']]);
    await container.item('tagged', 'violet').delete();
    await container.item('untagged', 'violet').delete();
  });
});

describe('a query without a partition key still reads every partition', () => {
  it('finds all documents and counts them all', async () => {
    expect(ids(await query('SELECT * FROM c'))).toEqual(ids(seeded));
    expect(await query('SELECT VALUE COUNT(1) FROM c')).toEqual([seeded.length]);
    expect(ids(await query('SELECT * FROM c WHERE c.pk = @pk', [{ name: '@pk', value: 'blue' }]))).toEqual(ids(inPartition('blue')));
  });
});

describe('writes after the partitions are indexed', () => {
  it('a create, replace, upsert and delete are seen by the next partition query, and only in their partition', async () => {
    await query('SELECT * FROM c', [], 'blue'); // the index exists from here, if it did not before
    await container.items.create({ id: 'late', pk: 'blue', kind: 'c-kind', n: 1 });
    expect(await query('SELECT VALUE c.n FROM c WHERE c.id = "late"', [], 'blue')).toEqual([1]);
    expect(await query('SELECT VALUE c.n FROM c WHERE c.id = "late"', [], 'red')).toEqual([]);

    const { resource: read } = await container.item('late', 'blue').read<Doc>();
    await container.item('late', 'blue').replace({ ...read!, n: 2 }, { accessCondition: { type: 'IfMatch', condition: read!._etag } });
    expect(await query('SELECT VALUE c.n FROM c WHERE c.id = "late"', [], 'blue')).toEqual([2]);

    await container.items.upsert({ id: 'late', pk: 'blue', kind: 'c-kind', n: 3 });
    await container.items.upsert({ id: 'upserted', pk: 'blue', kind: 'c-kind', n: 4 });
    expect(await query('SELECT VALUE c.n FROM c WHERE c.id IN ("late", "upserted") ORDER BY c.n', [], 'blue')).toEqual([3, 4]);
    expect(await query('SELECT VALUE COUNT(1) FROM c', [], 'blue')).toEqual([inPartition('blue').length + 2]);

    await container.item('late', 'blue').delete();
    await container.item('upserted', 'blue').delete();
    expect(ids(await query('SELECT * FROM c', [], 'blue'))).toEqual(ids(inPartition('blue')));
    expect(await query('SELECT VALUE COUNT(1) FROM c')).toEqual([seeded.length]);
  });

  it('a patch is seen too', async () => {
    await container.item('blue-0', 'blue').patch([{ op: 'incr', path: '/n', value: 10 }]);
    expect(await query('SELECT VALUE c.n FROM c WHERE c.id = "blue-0"', [], 'blue')).toEqual([10]);
    await container.item('blue-0', 'blue').patch([{ op: 'incr', path: '/n', value: -10 }]);
  });
});

describe('conditional writes and point reads answer as before', () => {
  it('a second create of the same id in the same partition is a 409; in another partition it is a new document', async () => {
    await expect(container.items.create({ id: 'red-1', pk: 'red', kind: 'a-kind', n: 0 })).rejects.toMatchObject({ code: 409 });
    await container.items.create({ id: 'red-1', pk: 'blue', kind: 'a-kind', n: 0 });
    expect((await query<{ id: string }>('SELECT c.id FROM c WHERE c.id = "red-1"', [], 'blue')).map((d) => d.id)).toEqual(['red-1']);
    await container.item('red-1', 'blue').delete();
  });

  it('a replace with a stale etag is a 412, and the partition keeps the current document', async () => {
    const { resource: first } = await container.item('green-2', 'green').read<Doc>();
    await container
      .item('green-2', 'green')
      .replace({ ...first!, n: 50 }, { accessCondition: { type: 'IfMatch', condition: first!._etag } });
    await expect(
      container.item('green-2', 'green').replace({ ...first!, n: 60 }, { accessCondition: { type: 'IfMatch', condition: first!._etag } }),
    ).rejects.toMatchObject({ code: 412 });
    expect(await query('SELECT VALUE c.n FROM c WHERE c.id = "green-2"', [], 'green')).toEqual([50]);
    const { resource: now } = await container.item('green-2', 'green').read<Doc>();
    await container.item('green-2', 'green').replace({ ...now!, n: first!.n });
  });

  it('a point read finds a document in its own partition only', async () => {
    expect((await container.item('twin', 'green').read<Doc>()).resource?.n).toBe(200);
    expect((await container.item('twin', 'red').read<Doc>()).resource?.n).toBe(100);
    expect((await container.item('red-3', 'green').read<Doc>()).statusCode).toBe(404);
  });
});

describe('its connections', () => {
  it('are kept open while idle for minutes, as Azure keeps them, not the 5 s a Node server keeps by default', async () => {
    const answer = await fetch(cosmos.endpoint, { headers: { connection: 'keep-alive' } });
    await answer.arrayBuffer();
    expect(answer.headers.get('connection')).toBe('keep-alive');
    expect(answer.headers.get('keep-alive')).toBe(`timeout=${KEPT_IDLE_MS / 1000}`);
  });
});
