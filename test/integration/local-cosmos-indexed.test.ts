import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container, SqlParameter } from '@azure/cosmos';
import { createHttpServer } from '@vercel/cosmosdb-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cosmosContainer, ensureContainer } from '../../adapters/cosmos/client';
import { COSMOS_EMULATOR_KEY, startCosmos, type CosmosServer } from '../../local/services';

// The local stack's Cosmos server (partitions and indexes, local/cosmos/partitions.ts) against the server as
// published, fed the same writes at the same clock: every query answers the same documents, in the same order, with
// the same pages. `_ts` is whole seconds of the server's clock, so the clock is set here, never waited for.

const PARTITIONS = ['2026-11-30', '2026-12-01', 'visitors'] as const;
const KINDS = ['fact', 'visitor-day', 'activity-hour', 'visitor-record'] as const;

/** mulberry32: the same writes and queries every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]) => items[int(items.length)]! };
}

type Rng = ReturnType<typeof random>;

/** A document of any kind, with now and then a field missing, null, or not a plain value. */
function docOf(rng: Rng, id: string, pk: string): Record<string, unknown> {
  const doc: Record<string, unknown> = { id, pk, kind: rng.pick(KINDS), n: rng.int(6), visit: rng.next() < 0.5 };
  const token = rng.int(10);
  if (token < 8) doc.token = `t${rng.int(12)}`;
  else if (token === 8) doc.token = rng.next() < 0.5 ? null : 7;
  else doc.token = rng.next() < 0.5 ? ['t1'] : { t: 't1' };
  if (rng.next() < 0.8) doc.who = rng.pick(['people', 'scanners']);
  if (rng.next() < 0.8) doc.counted_on = rng.pick(PARTITIONS.slice(0, 2));
  if (rng.next() < 0.7) doc.first_seen = `2026-11-${10 + rng.int(20)}`;
  if (rng.next() < 0.3) doc.unique = rng.int(3);
  return doc;
}

/** The queries the app makes (adapters/cosmos/*.ts) and others the index reads or must leave alone, with parameters. */
function queriesOf(rng: Rng, now: number): { query: string; parameters: SqlParameter[]; maxItemCount?: number }[] {
  const ts = () => now - rng.int(40);
  const after = ts();
  const tokens = Array.from({ length: 1 + rng.int(4) }, () => `t${rng.int(12)}`);
  return [
    {
      query: `SELECT TOP ${rng.pick([1, 3, 10, 500])} * FROM c WHERE c.kind = 'fact' AND c._ts > @after AND c._ts <= @upTo ORDER BY c._ts`,
      parameters: [
        { name: '@after', value: after },
        { name: '@upTo', value: after + rng.int(40) },
      ],
    },
    {
      query: "SELECT * FROM c WHERE c.kind = 'fact' AND c._ts > @after AND c._ts <= @upTo",
      parameters: [
        { name: '@after', value: after },
        { name: '@upTo', value: now },
      ],
    },
    {
      query:
        "SELECT * FROM c WHERE (c.kind = 'visitor-day' AND ARRAY_CONTAINS(@tokens, c.token)) OR (c.kind = 'activity-hour' AND ARRAY_CONTAINS(@hours, c.id))",
      parameters: [
        { name: '@tokens', value: tokens },
        { name: '@hours', value: [`d${rng.int(60)}`, `d${rng.int(60)}`] },
      ],
    },
    { query: "SELECT VALUE COUNT(1) FROM c WHERE c.kind = 'visitor-day' AND c.visit = true", parameters: [] },
    {
      query: "SELECT VALUE COUNT(1) FROM c WHERE c.kind = 'visitor-record' AND c.who = 'people' AND c.counted_on = @day",
      parameters: [{ name: '@day', value: rng.pick(PARTITIONS) }],
    },
    {
      query: "SELECT TOP 4 * FROM c WHERE c.kind = 'visitor-day' AND c.token > @after ORDER BY c.token ASC, c.id ASC",
      parameters: [{ name: '@after', value: `t${rng.int(12)}` }],
    },
    {
      query: `SELECT TOP ${rng.pick([2, 7])} c.who, c.first_seen, c._ts AS watermark FROM c WHERE c.kind = 'visitor-record' AND c._ts > @after AND c._ts <= @upTo ORDER BY c._ts`,
      parameters: [
        { name: '@after', value: after },
        { name: '@upTo', value: now },
      ],
    },
    {
      query: 'SELECT TOP 20 * FROM c WHERE c._ts >= @after ORDER BY c._ts',
      parameters: [{ name: '@after', value: after }],
      maxItemCount: 3,
    },
    { query: 'SELECT TOP 5 * FROM c WHERE c._ts > @after ORDER BY c._ts DESC', parameters: [{ name: '@after', value: after }] },
    {
      query: 'SELECT * FROM c WHERE c._ts = @at OR c.token = @token',
      parameters: [
        { name: '@at', value: ts() },
        { name: '@token', value: tokens[0]! },
      ],
    },
    { query: 'SELECT * FROM c WHERE c.token = @token OR c.n > 3', parameters: [{ name: '@token', value: tokens[0]! }] },
    { query: 'SELECT * FROM c WHERE NOT (c._ts > @after) AND c.n = 2', parameters: [{ name: '@after', value: after }] },
    { query: "SELECT * FROM c WHERE c.id IN ('d1', 'd2', 'd30') OR c.token = null", parameters: [] },
    { query: 'SELECT * FROM c WHERE ARRAY_CONTAINS(@list, c.token)', parameters: [{ name: '@list', value: ['t1', { t: 't1' }, 7] }] },
    { query: 'SELECT * FROM c WHERE ARRAY_CONTAINS(@list, c.token)', parameters: [{ name: '@list', value: ['t1', 7, null] }] },
    { query: 'SELECT * FROM c WHERE c["unique"] = 2 AND c.visit = false', parameters: [] },
    {
      query: 'SELECT * FROM c WHERE c._ts < @before AND c._ts >= @after',
      parameters: [
        { name: '@before', value: now - 5 },
        { name: '@after', value: 'text' },
      ],
    },
    { query: 'SELECT * FROM c WHERE c.token = @missing', parameters: [] },
    { query: 'SELECT c.id, c.n FROM c WHERE c.kind = @kind', parameters: [{ name: '@kind', value: rng.pick(KINDS) }], maxItemCount: 4 },
  ];
}

interface Pair {
  published: Container;
  local: Container;
}

type Spec = ReturnType<typeof queriesOf>[number];

/**
 * The query as the published server must be asked it to read one partition: it reads every document whatever
 * partition the call names, so the filter names it too (the queries here all have a WHERE).
 */
function confined(spec: Spec, partitionKey: string): Spec {
  const [head, rest] = spec.query.split(' WHERE ');
  const orderAt = rest!.indexOf(' ORDER BY ');
  const [where, tail] = orderAt < 0 ? [rest!, ''] : [rest!.slice(0, orderAt), rest!.slice(orderAt)];
  return {
    ...spec,
    query: `${head} WHERE c.pk = @pk AND (${where})${tail}`,
    parameters: [...spec.parameters, { name: '@pk', value: partitionKey }],
  };
}

/** Every page a query answers, each page's documents without `_etag` (random per write). */
async function pagesOf(container: Container, partitionKey: string, spec: Spec) {
  const iterator = container.items.query<Record<string, unknown>>(
    { query: spec.query, parameters: spec.parameters },
    { partitionKey, maxItemCount: spec.maxItemCount },
  );
  const pages: unknown[][] = [];
  while (iterator.hasMoreResults()) {
    const page = await iterator.fetchNext();
    pages.push(page.resources.map((doc) => (typeof doc === 'object' && doc !== null ? { ...doc, _etag: undefined } : doc)));
  }
  return pages;
}

let published: Server;
let local: CosmosServer;
const containers: Pair[] = [];
let clock = Date.parse('2026-12-01T12:00:00Z');

beforeAll(async () => {
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
  local = await startCosmos();
  published = createHttpServer({ keepAlive: true });
  await new Promise<void>((resolve) => published.listen(0, '127.0.0.1', () => resolve()));
  const endpointOf = (port: number) => `http://127.0.0.1:${port}`;
  for (const seed of [1, 2]) {
    const at = (endpoint: string) =>
      cosmosContainer({ endpoint, auth: { key: COSMOS_EMULATOR_KEY }, database: `indexed-${seed}`, container: 'docs' });
    const pair = { published: at(endpointOf((published.address() as AddressInfo).port)), local: at(local.endpoint) };
    await ensureContainer(pair.published);
    await ensureContainer(pair.local);
    containers.push(pair);
  }
});

afterAll(async () => {
  vi.restoreAllMocks();
  published?.closeAllConnections();
  await new Promise<void>((resolve) => (published ? published.close(() => resolve()) : resolve()));
  await local?.stop();
});

/** The same write to both servers, one after the other at the same clock. */
async function write(pair: Pair, rng: Rng, live: Map<string, string>): Promise<void> {
  const both = async (act: (container: Container) => Promise<unknown>) => {
    await act(pair.published);
    await act(pair.local);
  };
  const ids = [...live.keys()];
  const choice = rng.next();
  if (ids.length < 5 || choice < 0.45) {
    const id = `d${rng.int(60)}`;
    const pk = live.get(id) ?? rng.pick(PARTITIONS);
    const doc = docOf(rng, id, pk);
    live.set(id, pk);
    await both((container) => container.items.upsert(doc));
  } else if (choice < 0.85) {
    const id = rng.pick(ids);
    const doc = docOf(rng, id, live.get(id)!);
    await both((container) => container.item(id, doc.pk as string).replace(doc));
  } else {
    const id = rng.pick(ids);
    const pk = live.get(id)!;
    live.delete(id);
    await both((container) => container.item(id, pk).delete());
  }
}

describe('the local Cosmos server answers as the published one', () => {
  it.each([0, 1])('over random writes, clock steps and the app’s queries (seed %i)', async (which) => {
    const pair = containers[which]!;
    const rng = random(which + 7);
    const live = new Map<string, string>();
    let compared = 0;
    let nonEmpty = 0;
    for (let step = 1; step <= 400; step += 1) {
      if (rng.next() < 0.3) clock += 1000 * rng.int(3);
      await write(pair, rng, live);
      if (step % 40 !== 0) continue;
      for (const spec of queriesOf(rng, Math.floor(clock / 1000))) {
        for (const partitionKey of PARTITIONS) {
          const expected = await pagesOf(pair.published, partitionKey, confined(spec, partitionKey));
          const answered = await pagesOf(pair.local, partitionKey, spec);
          expect(answered, `${spec.query} ${JSON.stringify(spec.parameters)} in ${partitionKey}`).toEqual(expected);
          compared += 1;
          if (expected.flat().length) nonEmpty += 1;
        }
      }
    }
    expect(compared).toBe(10 * 19 * PARTITIONS.length);
    // Most comparisons found something: equal answers are not equal emptiness.
    expect(nonEmpty).toBeGreaterThan(compared / 2);
  });
});
