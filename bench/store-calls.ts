import { startProxy, type Call, type Proxy, type Request } from './proxy';

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
 * The request units a call would cost on Cosmos DB, roughly, as the reads bench prints them (KB = 1,024 bytes of the
 * response body): a point read 1 RU up to 1 KB and about 1 RU a KB past it (a 404 is 1 RU); a query page 2.5 RU and 1 RU
 * a KB it returns; a write about 5.5 RU a KB written (at least 5.5). The SDK's metadata and query-plan calls and a
 * throttled call cost none.
 */
export function roughRu(call: StoreCall): number {
  if (call.throttled) return 0;
  const kb = call.responseBytes / 1024;
  switch (call.kind) {
    case 'point read':
      return call.status === 404 ? 1 : 1 + Math.max(0, kb - 1);
    case 'query':
      return 2.5 + kb;
    case 'write':
      return 5.5 * Math.max(1, call.requestBytes / 1024);
    default:
      return 0;
  }
}

/** A read's cost, summed over its calls. */
export interface Cost {
  calls: number;
  kb: number;
  ru: number;
}

/** The calls' cost: how many, the KB the store answered, and their request units by `roughRu`. */
export const costOf = (calls: readonly StoreCall[]): Cost => ({
  calls: calls.length,
  kb: calls.reduce((sum, call) => sum + call.responseBytes, 0) / 1024,
  ru: calls.reduce((sum, call) => sum + roughRu(call), 0),
});

/** The proxy in front of the local Cosmos server at `endpoint` that the reads and fold benches read their calls from. */
export const storeProxyTo = (endpoint: string, options: { throttle?: number } = {}) => startProxy(new URL(endpoint), storeCall, options);

/** A proxy started by `storeProxyTo`. */
export type StoreProxy = Proxy<StoreCallClass>;
