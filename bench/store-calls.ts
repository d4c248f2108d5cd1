import { startProxy, type Call, type Proxy, type Request } from '../test/support/proxy';

type StoreCallKind = 'point read' | 'query' | 'write' | 'query plan' | 'metadata';

/** A call's kind, and the document's id and the partition key it named, else null. */
type StoreCallClass = { kind: StoreCallKind; id: string | null; pk: string | null };

export type StoreCall = Call<StoreCallClass>;

const truthy = (value: string | undefined) => /true/i.test(value ?? '');

/** The partition key's value from its header, `["<value>"]`. */
const pkOf = (header: string | undefined) => /^\["([^"\\]*)"\]$/.exec(header ?? '')?.[1] ?? null;

export function storeCall({ method, path, headers }: Request): StoreCallClass {
  const call = (kind: StoreCallKind, id: string | null = null) => ({ kind, id, pk: pkOf(headers.get('x-ms-documentdb-partitionkey')) });
  const docs = /\/dbs\/[^/]+\/colls\/[^/]+\/docs(?:\/([^/]+))?$/.exec(path);
  if (!docs) return call('metadata');
  if (truthy(headers.get('x-ms-cosmos-is-query-plan-request'))) return call('query plan');
  if (truthy(headers.get('x-ms-documentdb-isquery')) || /query\+json/.test(headers.get('content-type') ?? '')) return call('query');
  const id = docs[1] ?? null;
  if (method === 'GET') return id === null ? call('query') : call('point read', id);
  return call('write', id);
}

/** The SDK's own calls (the account, the container, a query plan): not the app's, and not priced. */
const sdkCall = (call: { kind: StoreCallKind }) => call.kind === 'metadata' || call.kind === 'query plan';

/** Request units, the one rule of every bench (the local server charges 1 a call), from Azure's figures for default indexing: a point read 1 RU a KB (a 404 1); a write 5 RU a KB (a 409 or 412 1); a query page 2.5 RU plus 1 a KB; a metadata call 1; a 429 none. */
function estimatedRu(call: { kind: StoreCallKind; status: number; requestBytes: number; responseBytes: number }): number {
  const kb = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
  if (call.status === 429) return 0;
  if (call.kind === 'point read') return call.status === 404 ? 1 : kb(call.responseBytes);
  if (call.kind === 'write') return call.status === 409 || call.status === 412 ? 1 : 5 * kb(call.requestBytes);
  return call.kind === 'query' ? 2.5 + Math.ceil(call.responseBytes / 1024) : 1;
}

/** Every call's cost, the SDK's included: how many, the KB the store answered, and their request units. */
export const costOf = (calls: readonly StoreCall[]) => ({
  calls: calls.length,
  kb: calls.reduce((sum, call) => sum + call.responseBytes, 0) / 1024,
  ru: calls.reduce((sum, call) => sum + estimatedRu(call), 0),
});

export type Cost = ReturnType<typeof costOf>;

/** The app's calls by kind (the SDK's counted apart as metadata) and their request units. */
export function tally(calls: readonly StoreCall[]) {
  const app = calls.filter((call) => !sdkCall(call));
  const by = (kind: StoreCallKind) => app.filter((call) => call.kind === kind).length;
  const ru = app.reduce((sum, call) => sum + estimatedRu(call), 0);
  return { reads: by('point read'), writes: by('write'), queries: by('query'), metadata: calls.length - app.length, calls: app.length, ru };
}

export const storeProxyTo = (endpoint: string, options: { throttle?: number } = {}) => startProxy(new URL(endpoint), storeCall, options);

export type StoreProxy = Proxy<StoreCallClass>;
