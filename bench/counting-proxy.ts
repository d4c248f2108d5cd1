import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from '../host/local/services';

/**
 * A TCP proxy in front of the local Cosmos server, like test/support/cosmos-proxy.ts (each chunk the client sends held
 * `delayMs`, as a real account's round trip would), that also reads the HTTP/1.1 traffic passing it: every request
 * line and every response status line, framed by Content-Length or chunked encoding, so each call is counted once,
 * whoever made it (the app's calls and the SDK's own metadata calls alike). Responses come back in request order on a
 * connection (the SDK does not pipeline), so each response's status is matched to the call it answers.
 */

/** What one call was, as far as the keep path and the fold are concerned. */
export type CallClass =
  | 'keep: record read'
  | 'keep: record write'
  | 'keep: fact create'
  | 'fold: read'
  | 'fold: write'
  | 'fold: store-clock upsert'
  | 'query'
  | 'query plan'
  | 'metadata';

export interface ProxyCounts {
  calls: number;
  /** TCP connections the clients opened to the store. */
  connections: number;
  byClass: Partial<Record<CallClass, number>>;
  /** Response statuses seen, by status. */
  statuses: Record<number, number>;
  /** 409 and 412 answers, by the class of the call they answered. */
  races: Partial<Record<CallClass, number>>;
  /** When (ms, performance.now()) each fact create passed the proxy, in order: one a message kept. */
  factCreates: number[];
}

const emptyCounts = (): ProxyCounts => ({
  calls: 0,
  connections: 0,
  byClass: {},
  statuses: {},
  races: {},
  factCreates: [],
});

interface Head {
  start: string;
  headers: Map<string, string>;
}

/** An incremental HTTP/1.1 message framer: hands each message's head and body to `onMessage` as they complete. */
function framer(kind: 'request' | 'response', onMessage: (head: Head, body: Buffer) => void, isHeadless: () => boolean = () => false) {
  let buffer: Buffer = Buffer.alloc(0);
  let head: Head | null = null;
  let need = 0;
  let chunked = false;
  let body: Buffer[] = [];
  const done = () => {
    onMessage(head!, Buffer.concat(body));
    head = null;
    body = [];
  };
  return (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      if (head === null) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
        buffer = buffer.subarray(end + 4);
        const headers = new Map<string, string>();
        for (const line of lines.slice(1)) {
          const colon = line.indexOf(':');
          if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
        }
        head = { start: lines[0] ?? '', headers };
        chunked = /chunked/i.test(headers.get('transfer-encoding') ?? '');
        const status = kind === 'response' ? Number(head.start.split(' ')[1]) : 0;
        const bodiless = kind === 'response' && (status === 204 || status === 304 || (status >= 100 && status < 200) || isHeadless());
        need = chunked || bodiless ? 0 : Number(headers.get('content-length') ?? 0);
        if (!chunked && need === 0) {
          done();
          continue;
        }
      }
      if (chunked) {
        // Each chunk: size line, data, CRLF; a zero-size chunk then the trailer's blank line ends the message.
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd < 0) return;
        const size = parseInt(buffer.subarray(0, lineEnd).toString('latin1'), 16);
        if (size === 0) {
          const trailerEnd = buffer.indexOf('\r\n\r\n', lineEnd - 2 < 0 ? 0 : lineEnd - 2);
          if (trailerEnd < 0) return;
          buffer = buffer.subarray(trailerEnd + 4);
          done();
          continue;
        }
        if (buffer.length < lineEnd + 2 + size + 2) return;
        body.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        buffer = buffer.subarray(lineEnd + 2 + size + 2);
        continue;
      }
      if (buffer.length < need) {
        body.push(buffer);
        need -= buffer.length;
        buffer = Buffer.alloc(0);
        return;
      }
      body.push(buffer.subarray(0, need));
      buffer = buffer.subarray(need);
      need = 0;
      done();
    }
  };
}

const HEX32 = /^[0-9a-f]{32}$/;

/** What a request is, from its method, path, headers and (for a write) the document's `kind`. */
export function classify(head: Head, body: Buffer): CallClass {
  const [method = '', rawPath = ''] = head.start.split(' ');
  const path = decodeURIComponent(rawPath.split('?')[0] ?? '');
  const isDocs = /\/dbs\/[^/]+\/colls\/[^/]+\/docs(\/|$)/.test(path);
  if (!isDocs) return 'metadata';
  if (head.headers.get('x-ms-cosmos-is-query-plan-request') === 'True' || head.headers.get('x-ms-cosmos-is-query-plan-request') === 'true')
    return 'query plan';
  if (/true/i.test(head.headers.get('x-ms-documentdb-isquery') ?? '') || /query\+json/.test(head.headers.get('content-type') ?? ''))
    return 'query';
  const id = path.match(/\/docs\/([^/]+)$/)?.[1];
  if (method === 'GET' && id !== undefined) {
    const pk = head.headers.get('x-ms-documentdb-partitionkey') ?? '';
    return pk.includes('"visitors"') && HEX32.test(id) ? 'keep: record read' : 'fold: read';
  }
  if (/true/i.test(head.headers.get('x-ms-documentdb-is-upsert') ?? '')) return 'fold: store-clock upsert';
  const kind = body.toString('utf8').match(/"kind"\s*:\s*"([^"]+)"/)?.[1];
  if (method === 'POST' && kind === 'fact') return 'keep: fact create';
  if ((method === 'POST' || method === 'PUT') && kind === 'visitor-record') return 'keep: record write';
  if (method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') return 'fold: write';
  return 'metadata';
}

/** Starts the proxy in front of `target`; `counts()` answers what passed since the last `reset()`. */
export async function countingProxy(target: URL, options: { delayMs?: number } = {}) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  const delayMs = options.delayMs ?? 0;
  let counts = emptyCounts();
  const bump = <K extends string>(record: Partial<Record<K, number>>, key: K) => {
    record[key] = (record[key] ?? 0) + 1;
  };
  const server: Server = createServer((client) => {
    counts.connections += 1;
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    const pending: Array<{ call: CallClass; head: boolean }> = [];
    const readRequests = framer('request', (head, body) => {
      const call = classify(head, body);
      counts.calls += 1;
      bump(counts.byClass, call);
      if (call === 'keep: fact create') counts.factCreates.push(performance.now());
      pending.push({ call, head: head.start.startsWith('HEAD ') });
    });
    const readResponses = framer(
      'response',
      (head) => {
        const status = Number(head.start.split(' ')[1]);
        const answered = pending.shift();
        counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
        if ((status === 409 || status === 412) && answered) bump(counts.races, answered.call);
      },
      () => pending[0]?.head ?? false,
    );
    client.on('data', (chunk: Buffer) => {
      readRequests(chunk);
      if (delayMs === 0) upstream.write(chunk);
      else setTimeout(() => upstream.write(chunk), delayMs);
    });
    client.on('end', () => (delayMs === 0 ? upstream.end() : setTimeout(() => upstream.end(), delayMs)));
    upstream.on('data', (chunk: Buffer) => {
      readResponses(chunk);
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    counts: (): ProxyCounts => structuredClone(counts),
    /** How many fact creates have passed since the last `reset()`, without copying the counts. */
    factCreates: () => counts.factCreates.length,
    reset() {
      counts = emptyCounts();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
