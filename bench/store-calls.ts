import { startProxy, type Call, type Proxy, type Request } from '../test/support/proxy';

/** What a call to the Cosmos server was, as far as its cost goes. */
export type StoreCallKind = 'point read' | 'query' | 'write' | 'query plan' | 'metadata';

interface StoreCallClass {
  kind: StoreCallKind;
  method: string;
  /** The document's id for a call on one document, else null. */
  id: string | null;
  /** The partition key the call named (one value), else null. */
  pk: string | null;
}

/** A call to the store as a proxy wrote it down. */
export type StoreCall = Call<StoreCallClass>;

const truthy = (value: string | undefined) => /true/i.test(value ?? '');

function pkOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  try {
    const value: unknown = JSON.parse(header);
    return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;
  } catch {
    return null;
  }
}

/** A Cosmos DB REST call, classed from its method, path and headers: the `classify` of a proxy in front of the store. */
export function storeCall({ method, path, headers }: Request): StoreCallClass {
  const call = (kind: StoreCallKind, id: string | null = null) => ({
    kind,
    method,
    id,
    pk: pkOf(headers.get('x-ms-documentdb-partitionkey')),
  });
  const docs = /\/dbs\/[^/]+\/colls\/[^/]+\/docs(?:\/([^/]+))?$/.exec(path);
  if (!docs) return call('metadata');
  if (truthy(headers.get('x-ms-cosmos-is-query-plan-request'))) return call('query plan');
  if (truthy(headers.get('x-ms-documentdb-isquery')) || /query\+json/.test(headers.get('content-type') ?? '')) return call('query');
  const id = docs[1] ?? null;
  if (method === 'GET') return id === null ? call('query') : call('point read', id);
  return call('write', id);
}

/** Whether a call is the SDK's own (the account, the container, a query plan): not the app's, and not priced. */
export const sdkCall = (call: { kind: StoreCallKind }) => call.kind === 'metadata' || call.kind === 'query plan';

/**
 * Request units, estimated from the calls and their document sizes (the local Cosmos server charges 1 for every call):
 * the one rule of every bench, from Azure's published figures for default indexing. A point read costs 1 RU per KB read
 * (at least 1; a 404 is 1); a write (create, replace, upsert) 5 RU per KB written (at least 5); a write refused with 409
 * or 412 is a read's 1 RU; a query page 2.5 RU plus 1 RU per KB it returns; a metadata read (the account, the
 * container, a query plan) 1 RU; a throttled call (429) none.
 */
export function estimatedRu(call: { kind: StoreCallKind; status: number; requestBytes: number; responseBytes: number }): number {
  const kb = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
  if (call.status === 429) return 0;
  switch (call.kind) {
    case 'point read':
      return call.status === 404 ? 1 : kb(call.responseBytes);
    case 'write':
      return call.status === 409 || call.status === 412 ? 1 : 5 * kb(call.requestBytes);
    case 'query':
      return 2.5 + Math.ceil(call.responseBytes / 1024);
    default:
      return 1;
  }
}

/** A read's cost, summed over its calls. */
export interface Cost {
  calls: number;
  kb: number;
  ru: number;
}

/** The calls' cost: how many, the KB the store answered, and their request units by `estimatedRu`. */
export const costOf = (calls: readonly StoreCall[]): Cost => ({
  calls: calls.length,
  kb: calls.reduce((sum, call) => sum + call.responseBytes, 0) / 1024,
  ru: calls.reduce((sum, call) => sum + estimatedRu(call), 0),
});

/** The proxy in front of the local Cosmos server at `endpoint` that the reads and fold benches read their calls from. */
export const storeProxyTo = (endpoint: string, options: { throttle?: number } = {}) => startProxy(new URL(endpoint), storeCall, options);

/** A proxy started by `storeProxyTo`. */
export type StoreProxy = Proxy<StoreCallClass>;
