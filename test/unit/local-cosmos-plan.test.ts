import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { keysOf, shapeOf } from '../../local/cosmos/query-plan';
import { PartitionedMap } from '../../local/cosmos/partitioned-map';

// What the local Cosmos server's indexes hand its engine for the fold's queries over a large partition: the few
// documents a page reads, not the partition. (That the answers equal the published server's is
// test/integration/local-cosmos-indexed.test.ts.)

const engine = createRequire(require.resolve('@vercel/cosmosdb-server'));
const parse = engine('@zeit/cosmosdb-query').default as (sql: string) => { ast: unknown };

type Doc = { read(): Record<string, unknown> };
const FACTS = 20_000;
const START = 1_800_000_000;

/** A day's partition: FACTS facts, 40 a second, and a visitor-day for every fifth, each with one of 500 tokens. */
function dayPartition(): PartitionedMap<Doc> {
  const map = new PartitionedMap<Doc>(
    [],
    (doc) => doc.read().pk,
    (doc) => doc.read(),
  );
  for (let i = 0; i < FACTS; i += 1) {
    const fact = { id: `f${i}`, pk: 'day', kind: 'fact', _ts: START + Math.floor(i / 40) };
    map.set(`r${i}`, { read: () => fact });
    if (i % 5 !== 0) continue;
    const visitorDay = { id: `v${i}`, pk: 'day', kind: 'visitor-day', token: `t${i % 500}`, visit: i % 2 === 0, _ts: fact._ts };
    map.set(`v${i}`, { read: () => visitorDay });
  }
  return map;
}

const shape = (sql: string, parameters: { name: string; value: unknown }[]) => shapeOf(parse(sql).ast, parameters);

describe('the local Cosmos server’s indexes pick what a query can match', () => {
  const map = dayPartition();
  const index = map.indexOf('day')!;

  it('a slice of facts reads its TOP in _ts order, to the end of a whole second', () => {
    const { firstByTs } = shape("SELECT TOP 500 * FROM c WHERE c.kind = 'fact' AND c._ts > @after AND c._ts <= @upTo ORDER BY c._ts", [
      { name: '@after', value: START + 100 },
      { name: '@upTo', value: START + 10_000 },
    ]);
    expect(firstByTs?.top).toBe(500);
    const { from, to } = index.tsRange(firstByTs!.range);
    const { keys } = index.tsSlice(from, to, 500);
    // 40 facts and 8 visitor-days a second: 500 documents end within a second of 48; the slice takes the rest of it.
    expect(keys.length).toBeGreaterThanOrEqual(500);
    expect(keys.length).toBeLessThan(500 + 48);
    expect(keys.every((key) => (map.get(key)!.read()._ts as number) > START + 100)).toBe(true);
  });

  it('the documents a slice touches are found by their tokens, not by reading the day', () => {
    const { plan } = shape(
      "SELECT * FROM c WHERE (c.kind = 'visitor-day' AND ARRAY_CONTAINS(@tokens, c.token)) OR (c.kind = 'activity-hour' AND ARRAY_CONTAINS(@hours, c.id))",
      [
        { name: '@tokens', value: ['t0', 't5'] },
        { name: '@hours', value: ['h1'] },
      ],
    );
    const keys = keysOf(plan, index)!;
    expect(keys.size).toBe((FACTS / 500) * 2); // visitor-days of every 500th fact have t0, of the 5th after it t5
  });

  it('an AND reads by its fewest side, an OR of an unindexed side reads everything', () => {
    const both = shape("SELECT * FROM c WHERE c.kind = 'visitor-day' AND c.token = 't10'", []);
    expect(keysOf(both.plan, index)!.size).toBe(FACTS / 500);
    // t10's visitor-days are among those with a visit (every tenth fact's): the union is those.
    const either = shape("SELECT * FROM c WHERE c.token = 't10' OR c.visit = true", []);
    expect(keysOf(either.plan, index)!.size).toBe(FACTS / 10);
    expect(keysOf(shape("SELECT * FROM c WHERE c.token = 't10' OR NOT c.visit", []).plan, index)).toBeUndefined();
  });

  it('keeps its indexes in step with writes after they are built', () => {
    const fresh = { id: 'late', pk: 'day', kind: 'visitor-day', token: 't7', _ts: START + 9_999 };
    map.set('late', { read: () => fresh });
    expect(keysOf(shape("SELECT * FROM c WHERE c.token = 't7'", []).plan, index)!.has('late')).toBe(true);
    const moved = { ...fresh, token: 't8' };
    map.set('late', { read: () => moved });
    expect(keysOf(shape("SELECT * FROM c WHERE c.token = 't7'", []).plan, index)!.has('late')).toBe(false);
    map.delete('late');
    expect(keysOf(shape("SELECT * FROM c WHERE c.token = 't8'", []).plan, index)!.has('late')).toBe(false);
    const { from, to } = index.tsRange({ low: START + 9_998, lowInclusive: false, high: Infinity, highInclusive: true });
    expect(index.tsSlice(from, to, Infinity).keys).toEqual([]);
  });
});
