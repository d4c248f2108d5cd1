import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type Document from '@vercel/cosmosdb-server/lib/account/document';
import Documents from '@vercel/cosmosdb-server/lib/account/documents';
import { keysOf, shapeOf, type QueryShape } from './cosmos-query-plan';
import { PartitionedMap, type PartitionValue } from './partitioned-map';
import { installOnce } from './stand-ins';

// `@vercel/cosmosdb-server` keeps a collection's documents in one Map (`Documents._data`, keyed by `_rid`) and answers
// every query by compiling its SQL with @zeit/cosmosdb-query and running it over all of them, partition-key header or
// not. Real Cosmos DB reads only the named partition. So, for a query request, the partition the request names rides
// along in an AsyncLocalStorage (the server's handlers take no such argument), and `Documents.prototype.query` then
// runs the server's own code over a view of the collection whose `_data` is that partition's documents only: the same
// SQL engine, filters, ORDER BY, aggregates and continuation tokens, over far fewer documents. Within the partition,
// indexes of its field values and of `_ts` pick the documents a filter can match (cosmos-query-plan.ts), as Cosmos
// DB's own index does, so a page of a large partition costs what the page reads.

/** What a query in flight may read: one partition's documents, or none at all (a query plan request). */
type Scope = { partition: PartitionValue } | 'nothing';

const scope = new AsyncLocalStorage<Scope>();
const NOTHING = new Map<string, Document>();

const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The partition a `x-ms-documentdb-partitionkey` header names, or undefined when it names none the index can serve. */
function partitionNamed(header: string): Scope | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return undefined;
  }
  // A hierarchical key (several values) would need every path: such queries keep scanning, as before.
  if (!Array.isArray(parsed) || parsed.length !== 1) return undefined;
  const [value] = parsed as unknown[];
  if (typeof value !== 'object' || value === null) return { partition: value };
  // The SDK writes `[{}]` for PartitionKey None: the documents that have no value at the key's path.
  return !Array.isArray(value) && Object.keys(value).length === 0 ? { partition: undefined } : undefined;
}

/** How the server's router tells a query from a create: the same two signs. */
export const isQuery = (req: IncomingMessage): boolean =>
  req.method === 'POST' &&
  (headerOf(req, 'x-ms-documentdb-isquery')?.toLowerCase() === 'true' || headerOf(req, 'content-type') === 'application/query+json');

function scopeOf(req: IncomingMessage): Scope | undefined {
  if (!isQuery(req)) return undefined;
  // The SDK asks for a query plan (without a partition key) alongside every query and uses it only when the query's own
  // answer is a 400 asking for one, which this server never gives. The server would run the query over every document
  // to answer the plan; over no documents it answers the same shape (and the same 400 for bad SQL) at no cost.
  if (headerOf(req, 'x-ms-cosmos-is-query-plan-request')?.toLowerCase() === 'true') return 'nothing';
  const header = headerOf(req, 'x-ms-documentdb-partitionkey');
  return header === undefined ? undefined : partitionNamed(header);
}

/** The collection's documents by partition, kept so on first use; every later write goes through it. */
function partitionedOf(documents: Documents): PartitionedMap<Document> {
  if (!(documents._data instanceof PartitionedMap)) {
    documents._data = new PartitionedMap(
      documents._data,
      (item) => documents._getPartition(item.read() ?? {}),
      (item) => item.read() ?? {},
    );
  }
  return documents._data as PartitionedMap<Document>;
}

type Query = (this: Documents, ...args: Parameters<Documents['query']>) => ReturnType<Documents['query']>;
type Answer = { result: unknown[]; continuation: unknown } | null;

/** The server's own query over a view of this collection that differs only in which documents it holds. */
function over(query: Query, documents: Documents, items: readonly Document[], args: Parameters<Query>): Answer {
  const view = Object.create(documents, { _data: { value: { values: () => items } } }) as Documents;
  return query.apply(view, args) as Answer;
}

/**
 * The query over the partition's documents its indexes pick. `TOP n … ORDER BY c._ts` reads the first documents in
 * `_ts` order, whole seconds at a time, until n match or the bounds are passed: the engine orders ties by `_rid`, so
 * the first n of what was read are the first n of the partition.
 */
function indexed(query: Query, documents: Documents, partition: PartitionValue, args: Parameters<Query>): Answer {
  const partitioned = partitionedOf(documents);
  const members = partitioned.partitions.get(partition) ?? NOTHING;
  const index = partitioned.indexOf(partition);
  const [params, paging] = args;
  const unpaged = [params, {}] as unknown as Parameters<Query>;
  const pages = (paging.maxItemCount ?? 0) > 0 || Boolean(paging.continuation);
  let shape: QueryShape;
  try {
    shape = shapeOf(documents._getQuery(params.query).ast, params.parameters);
  } catch {
    return over(query, documents, [...members.values()], args); // the server's own 400 for SQL it cannot parse
  }
  const itemsOf = (keys: readonly string[]) => keys.map((key) => members.get(key)!);
  if (!index) return over(query, documents, [], args);
  if (shape.firstByTs) {
    const { top, range } = shape.firstByTs;
    const { from, to } = index.tsRange(range);
    for (let atLeast = Math.max(top, 1); ; atLeast *= 2) {
      const { keys, next } = index.tsSlice(from, to, atLeast);
      const whole = over(query, documents, itemsOf(keys), unpaged);
      // Enough read: the answer asked for, the same documents paged as the call asks (unpaged, it is `whole`).
      if (next >= to || (whole?.result.length ?? 0) >= top) return pages ? over(query, documents, itemsOf(keys), args) : whole;
    }
  }
  const keys = keysOf(shape.plan, index);
  return over(query, documents, keys ? itemsOf([...keys]) : [...members.values()], args);
}

function installScopedQuery(): void {
  const packages = [
    ['@vercel/cosmosdb-server', require.resolve],
    // The plan reads the engine's parsed queries.
    ['@zeit/cosmosdb-query', createRequire(require.resolve('@vercel/cosmosdb-server')).resolve],
  ] as const;
  installOnce('cosmos-partitions.ts', packages, () => {
    // The server's own method, taken off its prototype to be called on a view: it is called with `this` every time.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const query = Documents.prototype.query as Query;
    // The server's typings give its query's answer as `any`; the wrapper hands it on untouched.
    /* eslint-disable @typescript-eslint/no-unsafe-return */
    Documents.prototype.query = function scopedQuery(this: Documents, ...args: Parameters<Query>) {
      const current = scope.getStore();
      if (current === undefined) return query.apply(this, args);
      if (current === 'nothing') return over(query, this, [], args);
      return indexed(query, this, current.partition, args);
    };
    /* eslint-enable @typescript-eslint/no-unsafe-return */
  });
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Makes a `@vercel/cosmosdb-server` HTTP server read only the named partition for a query that carries a partition
 * key (as `container.items.query(spec, { partitionKey })` sends), as Cosmos DB does, and skip the full scan it would
 * make to answer the SDK's query plan request. Cross-partition queries, point reads and writes are served as before.
 * Works on a server already listening.
 */
export function scopeQueriesToPartitions<S extends Server>(server: S): S {
  installScopedQuery();
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const within = scopeOf(req);
    for (const listener of listeners) {
      if (within === undefined) listener.call(server, req, res);
      else scope.run(within, () => listener.call(server, req, res));
    }
  });
  return server;
}
