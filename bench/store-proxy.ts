import { Agent, createServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import { freePort } from '../host/local/services';

/**
 * An HTTP-level proxy in front of the local Cosmos server for the reads and fold benches: each call the SDK makes is
 * read whole, sent on, and written down with the bytes the store answered (the response body), so a read's calls, its
 * KB and an estimate of its request units can be printed. With `throttle`, that share of the document calls is answered
 * 429 by the proxy itself (`x-ms-retry-after-ms: 50`), as a busy account answers; the SDK's metadata calls never are.
 * It speaks only to loopback.
 */

/** What a call was, as far as its cost goes. */
export type StoreCallKind = 'point read' | 'query' | 'write' | 'query plan' | 'metadata';

export interface StoreCall {
  kind: StoreCallKind;
  method: string;
  /** The document's id for a call on one document, else null. */
  id: string | null;
  /** The partition key the call named (one value), else null. */
  pk: string | null;
  status: number;
  requestBytes: number;
  /** The response body's bytes: what the store answered. */
  responseBytes: number;
  /** Answered 429 by the proxy, never sent on. */
  throttled: boolean;
}

const truthy = (value: string | string[] | undefined) => /true/i.test(String(value ?? ''));

function kindOf(request: IncomingMessage, path: string): { kind: StoreCallKind; id: string | null } {
  const docs = /\/dbs\/[^/]+\/colls\/[^/]+\/docs(?:\/([^/]+))?$/.exec(path);
  if (!docs) return { kind: 'metadata', id: null };
  if (truthy(request.headers['x-ms-cosmos-is-query-plan-request'])) return { kind: 'query plan', id: null };
  if (truthy(request.headers['x-ms-documentdb-isquery']) || /query\+json/.test(request.headers['content-type'] ?? ''))
    return { kind: 'query', id: null };
  const id = docs[1] ?? null;
  if (request.method === 'GET') return id === null ? { kind: 'query', id: null } : { kind: 'point read', id };
  return { kind: 'write', id };
}

function pkOf(request: IncomingMessage): string | null {
  const header = request.headers['x-ms-documentdb-partitionkey'];
  if (typeof header !== 'string') return null;
  try {
    const value: unknown = JSON.parse(header);
    return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;
  } catch {
    return null;
  }
}

/**
 * The request units a call would cost on Cosmos DB, roughly (KB = 1,024 bytes of the response body): a point read 1 RU
 * up to 1 KB and about 1 RU a KB past it (a 404 is 1 RU); a query page 2.5 RU and 1 RU a KB it returns; a write about
 * 5.5 RU a KB written (at least 5.5). The SDK's metadata and query-plan calls and a throttled call cost none.
 */
export function estimatedRu(call: StoreCall): number {
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

export const costOf = (calls: readonly StoreCall[]): Cost => ({
  calls: calls.length,
  kb: calls.reduce((sum, call) => sum + call.responseBytes, 0) / 1024,
  ru: calls.reduce((sum, call) => sum + estimatedRu(call), 0),
});

/** A small deterministic random source (mulberry32), so a throttled run throttles the same calls each time. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const THROTTLED_BODY = JSON.stringify({ code: 'TooManyRequests', message: 'throttled' });

/** Starts the proxy in front of `target` (the local Cosmos server's endpoint). */
export async function storeProxy(target: URL, options: { throttle?: number; seed?: number } = {}) {
  const port = await freePort();
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const random = seeded(options.seed ?? 42);
  let throttle = options.throttle ?? 0;
  let calls: StoreCall[] = [];
  let throttled = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
      const { kind, id } = kindOf(request, path);
      const call: StoreCall = {
        kind,
        method: request.method ?? 'GET',
        id,
        pk: pkOf(request),
        status: 0,
        requestBytes: body.length,
        responseBytes: 0,
        throttled: false,
      };
      if (kind !== 'metadata' && throttle > 0 && random() < throttle) {
        throttled += 1;
        calls.push({ ...call, status: 429, throttled: true });
        response.writeHead(429, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(THROTTLED_BODY),
          'x-ms-retry-after-ms': '50',
          'x-ms-substatus': '3200',
        });
        response.end(THROTTLED_BODY);
        return;
      }
      const upstream = forward(
        { host: target.hostname, port: Number(target.port), method: request.method, path: request.url, headers: request.headers, agent },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.on('data', (chunk: Buffer) => {
            call.responseBytes += chunk.length;
            response.write(chunk);
          });
          answer.on('end', () => {
            call.status = answer.statusCode ?? 502;
            calls.push(call);
            response.end();
          });
        },
      );
      upstream.on('error', () => response.destroy());
      upstream.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    /** The calls answered since the last `reset()`, in the order they were answered. */
    calls: (): StoreCall[] => [...calls],
    /** How many calls have been answered 429 by the proxy since it started. */
    throttled: () => throttled,
    reset() {
      calls = [];
    },
    /** The share of document calls answered 429 from now on (0: none). */
    setThrottle(share: number) {
      throttle = share;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
