import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import type { Registration } from '../../host/registry';
import type { Logger } from '../../shared/ports/logger';

/** One HTTP call a proxy passed on: how it was classed, its status and the bytes each way. */
export interface MeteredCall {
  kind: string;
  status: number;
  requestBytes: number;
  responseBytes: number;
}

const readAll = async (stream: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * An HTTP proxy in front of a local service (Azurite's queue, the Cosmos server) that records every call it passes
 * on, classed by `classify`, with its status and body sizes: what the app asked of the service, counted on the wire.
 */
export async function meteringProxy(target: URL, classify: (method: string, url: URL, headers: IncomingMessage['headers']) => string) {
  let calls: MeteredCall[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await readAll(incoming);
      const url = new URL(incoming.url ?? '/', 'http://proxy');
      const kind = classify(incoming.method ?? 'GET', url, incoming.headers);
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
        (answer) => {
          void readAll(answer).then((returned) => {
            calls.push({ kind, status: answer.statusCode ?? 0, requestBytes: body.length, responseBytes: returned.length });
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(returned);
          });
        },
      );
      upstream.on('error', () => {
        outgoing.writeHead(502);
        outgoing.end();
      });
      upstream.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** The calls since the last `take`, and a fresh count from now. */
    take(): MeteredCall[] {
      const taken = calls;
      calls = [];
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A queue REST call, classed: put, get, delete, update (visibility), or the bench's own (create, properties, peek, clear). */
export function queueCall(method: string, url: URL): string {
  const messages = /\/messages(\/[^/]+)?$/.exec(url.pathname);
  if (!messages) return 'setup';
  if (method === 'POST') return 'put';
  if (method === 'GET') return url.searchParams.get('peekonly') === 'true' ? 'setup' : 'get';
  if (method === 'DELETE') return messages[1] ? 'delete' : 'setup';
  if (method === 'PUT') return 'update';
  return 'setup';
}

/** A Cosmos DB REST call, classed: a point read, a write, a query, or metadata (the account, the container, key ranges). */
export function cosmosCall(method: string, url: URL, headers: IncomingMessage['headers']): string {
  const doc = /\/docs\/[^/]+$/.test(url.pathname);
  const docs = /\/docs\/?$/.test(url.pathname);
  if (doc && method === 'GET') return 'read';
  if (doc && (method === 'PUT' || method === 'PATCH' || method === 'DELETE')) return 'write';
  if (docs && method === 'POST') {
    const isQuery =
      String(headers['x-ms-documentdb-isquery'] ?? '').toLowerCase() === 'true' ||
      String(headers['content-type'] ?? '').includes('query+json');
    if (isQuery) return headers['x-ms-cosmos-is-query-plan-request'] ? 'metadata' : 'query';
    return 'write';
  }
  return 'metadata';
}

/** Counts executions by kind, and the seconds in which at least one was running (overlapping ones counted once). */
export function executionMeter() {
  const counts = { http: 0, queue: 0, timer: 0 };
  let running = 0;
  let since = 0;
  let activeMs = 0;
  const begin = (kind: keyof typeof counts) => {
    counts[kind] += 1;
    if (running++ === 0) since = performance.now();
  };
  const end = () => {
    if (--running === 0) activeMs += performance.now() - since;
  };
  return {
    /** The registrations, each handler timed. */
    wrap(registrations: readonly Registration[]): Registration[] {
      return registrations.map((registration) => ({
        ...registration,
        make: (root: Parameters<Registration['make']>[0]) => {
          const handler = registration.make(root) as (...args: unknown[]) => unknown;
          return (async (...args: unknown[]) => {
            begin(registration.kind);
            try {
              return await handler(...args);
            } finally {
              end();
            }
          }) as never;
        },
      }));
    },
    /** The counts and active seconds since the last `take`. */
    take() {
      const taken = { ...counts, activeSeconds: activeMs / 1000 };
      counts.http = counts.queue = counts.timer = 0;
      activeMs = 0;
      return taken;
    },
  };
}

/** A logger that writes nothing and counts the bytes of every line the app would have written. */
export function countingLogger(echo = false): Logger & { take(): { lines: number; bytes: number }; said(message: string): number } {
  const said = new Map<string, number>();
  let lines = 0;
  let bytes = 0;
  const count = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines += 1;
    said.set(message, (said.get(message) ?? 0) + 1);
    const line = JSON.stringify({ level, message, ...fields });
    bytes += Buffer.byteLength(line);
    if (echo) console.error(line);
  };
  return {
    info: count('info'),
    warn: count('warn'),
    error: count('error'),
    /** How many lines with this message were written since the start. */
    said: (message: string) => said.get(message) ?? 0,
    take() {
      const taken = { lines, bytes };
      lines = bytes = 0;
      return taken;
    },
  };
}
