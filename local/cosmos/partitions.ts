import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type Document from '@vercel/cosmosdb-server/lib/account/document';
import Documents from '@vercel/cosmosdb-server/lib/account/documents';
import { keysOf, shapeOf, type QueryShape } from './query-plan';
import { PartitionedMap, type PartitionValue } from './partitioned-map';
import { installOnce } from '../stand-ins';

// The server answers every query by scanning the whole collection, while Cosmos DB reads only the named partition.
// So the request's partition rides in an AsyncLocalStorage, and the server's own query code runs over that partition's
// documents, with indexes picking what a filter can match (query-plan.ts), as Cosmos DB's index does.

/** 'nothing' is for a query plan request. */
type Scope = { partition: PartitionValue } | 'nothing';

const scope = new AsyncLocalStorage<Scope>();
const NOTHING = new Map<string, Document>();

const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Undefined when the header names no partition the index can serve. */
function partitionNamed(header: string): Scope | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return undefined;
  }
  // A hierarchical key would need every path, so such queries keep scanning.
  if (!Array.isArray(parsed) || parsed.length !== 1) return undefined;
  const [value] = parsed as unknown[];
  if (typeof value !== 'object' || value === null) return { partition: value };
  // The SDK writes `[{}]` for PartitionKey None: the documents with no value at the key's path.
  return !Array.isArray(value) && Object.keys(value).length === 0 ? { partition: undefined } : undefined;
}

/** The same two signs the server's router reads. */
export const isQuery = (req: IncomingMessage): boolean =>
  req.method === 'POST' &&
  (headerOf(req, 'x-ms-documentdb-isquery')?.toLowerCase() === 'true' || headerOf(req, 'content-type') === 'application/query+json');

function scopeOf(req: IncomingMessage): Scope | undefined {
  if (!isQuery(req)) return undefined;
  // The SDK uses the plan only after a 400 asking for one, which this server never gives.
  // So the plan is answered over no documents, in the same shape, at no cost.
  if (headerOf(req, 'x-ms-cosmos-is-query-plan-request')?.toLowerCase() === 'true') return 'nothing';
  const header = headerOf(req, 'x-ms-documentdb-partitionkey');
  return header === undefined ? undefined : partitionNamed(header);
}

/** Built on first use; every later write goes through it. */
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

function over(query: Query, documents: Documents, items: readonly Document[], args: Parameters<Query>): Answer {
  const view = Object.create(documents, { _data: { value: { values: () => items } } }) as Documents;
  return query.apply(view, args) as Answer;
}

/** The engine orders ties by `_rid`, so `TOP n … ORDER BY c._ts` reads whole seconds in `_ts` order until n match. */
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
      // Enough read: page the same documents as the call asks.
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
  installOnce('cosmos/partitions.ts', packages, () => {
    // It is called with `this` every time, so it can run on a view.
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

/** Cross-partition queries, point reads and writes are served as before; works on a server already listening. */
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
