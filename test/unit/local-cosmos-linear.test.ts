import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linearQueries } from '../../local/cosmos/linear-queries';
import { queriesParsedOnce } from '../../local/cosmos/query-cache';

// The local Cosmos server's query engine made linear (local/cosmos/linear-queries.ts) against the engine as
// published, loaded a second time, untouched: the same queries over the same documents answer the same.

type Engine = (sql: string) => {
  code: string;
  exec(docs: unknown[], options: { parameters: { name: string; value: unknown }[] }): { result: unknown[] };
};

const fromServer = createRequire(require.resolve('@vercel/cosmosdb-server'));

/** A fresh copy of the engine's modules, as published: the cached ones stay the server's. */
function publishedEngine(): Engine {
  const folder = dirname(fromServer.resolve('@zeit/cosmosdb-query/package.json'));
  const cache = fromServer.cache;
  const kept = Object.entries(cache).filter(([path]) => path.startsWith(folder));
  for (const [path] of kept) delete cache[path];
  try {
    return (fromServer('@zeit/cosmosdb-query') as { default: Engine }).default;
  } finally {
    for (const path of Object.keys(cache).filter((path) => path.startsWith(folder))) delete cache[path];
    for (const [path, module] of kept) cache[path] = module;
  }
}

function random(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Documents with arrays to join, nested fields, fields missing, and `_rid`s as the server gives them. */
function docsOf(count: number, seed: number) {
  const int = random(seed);
  return Array.from({ length: count }, (_, i) => ({
    id: `d${i}`,
    _rid: `rid${String(i).padStart(6, '0')}`,
    kind: ['a', 'b', 'c'][int(3)],
    n: int(10),
    ...(int(3) > 0 ? { tags: Array.from({ length: int(4) }, () => `t${int(5)}`) } : {}),
    ...(int(2) ? { nested: { kept: int(4), list: [int(3), int(3)] } } : {}),
  }));
}

const QUERIES = [
  'SELECT * FROM c',
  'SELECT c.id, c.nested.kept AS kept, c.missing FROM c WHERE c.n > @n',
  'SELECT VALUE t FROM c JOIN t IN c.tags',
  'SELECT c.id, t AS tag FROM c JOIN t IN c.tags WHERE t = @tag',
  'SELECT VALUE [c.id, c.missing, c.n] FROM c',
  'SELECT TOP 7 c.id, c.n FROM c ORDER BY c.n DESC',
  'SELECT VALUE COUNT(1) FROM c JOIN t IN c.tags',
  'SELECT VALUE SUM(c.n) FROM c WHERE ARRAY_CONTAINS(c.tags, @tag)',
  'SELECT VALUE MAX(c.n) FROM c WHERE c.kind = "b"',
  'SELECT { "id": c.id, "k": c.nested.kept } AS o FROM c WHERE IS_DEFINED(c.nested)',
];

describe('the linear query engine answers as the published one', () => {
  it.each([1, 2, 3])('for joins, projections, aggregates, ORDER BY and missing fields (seed %i)', (seed) => {
    const published = publishedEngine();
    linearQueries();
    const linear = (fromServer('@zeit/cosmosdb-query') as { default: Engine }).default;
    const docs = docsOf(300, seed);
    const parameters = [
      { name: '@n', value: 4 },
      { name: '@tag', value: 't2' },
    ];
    for (const sql of QUERIES) {
      const expected = published(sql).exec(docs, { parameters }).result;
      expect(linear(sql).exec(docs, { parameters }).result, sql).toEqual(expected);
      expect(expected.length, sql).toBeGreaterThan(0);
    }
    // The copies differ where they should: the published engine copies its accumulator, the linear one pushes.
    expect(published(QUERIES[2]!).code).toContain('[...$');
    expect(linear(QUERIES[2]!).code).not.toContain('[...$');
  });
});

describe('the engine, each query text parsed once a process', () => {
  it('answers two containers of other documents as the published engine, from one parse', () => {
    const published = publishedEngine();
    linearQueries();
    queriesParsedOnce();
    const served = (fromServer('@zeit/cosmosdb-query') as { default: Engine }).default;
    const parameters = [
      { name: '@n', value: 2 },
      { name: '@tag', value: 't1' },
    ];
    for (const sql of QUERIES) {
      expect(served(sql), sql).toBe(served(` ${sql}`.slice(1)));
      for (const seed of [4, 5]) {
        const docs = docsOf(120, seed);
        expect(served(sql).exec(docs, { parameters }).result, sql).toEqual(published(sql).exec(docs, { parameters }).result);
      }
    }
    expect(served(QUERIES[0]!)).not.toBe(served(QUERIES[1]!));
  });
});
