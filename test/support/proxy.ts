import { connect, createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { freePort } from '../../local/services';
import { seeded } from './log-history';

/**
 * The one proxy of the tests and the benches: TCP in front of a local service (the Cosmos server, Azurite's queue), reading the HTTP/1.1
 * that passes it, every request and every response framed by Content-Length or chunked encoding, so each call is
 * written down once, whoever made it (the app's calls and the SDKs' own alike). Responses come back in request order on
 * a connection (the SDKs do not pipeline), so each status is matched to the call it answers. Each request can be held
 * `delayMs`, as a real account's round trip would hold it, and a share of the calls can be answered 429 by the proxy
 * itself (`x-ms-retry-after-ms: 50`), as a busy account answers. It can be cut and restored on the same port: cut, a
 * client's connections are dropped and new ones refused, as when the service is down, while its data stays behind it.
 */

/** A request as it reached the proxy. */
export interface Request {
  method: string;
  /** The request target as sent: path and query. */
  target: string;
  /** The target's path, decoded. */
  path: string;
  /** Header names in lower case. */
  headers: Map<string, string>;
  body: Buffer;
}

/** A call as written down: what `classify` made of the request, and how it was answered. */
export type Call<K> = K & {
  status: number;
  requestBytes: number;
  /** The response body's bytes: what the service answered. */
  responseBytes: number;
  /** Answered 429 by the proxy, never sent on. */
  throttled: boolean;
  /** When the request had passed (performance.now()). */
  at: number;
};

interface Message {
  start: string;
  headers: Map<string, string>;
  body: Buffer;
  raw: Buffer;
}

/** An incremental HTTP/1.1 framer: hands each message, its head, body and raw bytes, to `onMessage` as it completes. */
function framer(kind: 'request' | 'response', onMessage: (message: Message) => void, isHeadless: () => boolean = () => false) {
  let buffer: Buffer = Buffer.alloc(0);
  let head: { start: string; headers: Map<string, string> } | null = null;
  let need = 0;
  let chunked = false;
  let body: Buffer[] = [];
  let raw: Buffer[] = [];
  const take = (bytes: number) => {
    raw.push(buffer.subarray(0, bytes));
    buffer = buffer.subarray(bytes);
  };
  const done = () => {
    onMessage({ ...head!, body: Buffer.concat(body), raw: Buffer.concat(raw) });
    head = null;
    body = [];
    raw = [];
  };
  return (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      if (head === null) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
        take(end + 4);
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
          const trailerEnd = buffer.indexOf('\r\n\r\n', Math.max(0, lineEnd - 2));
          if (trailerEnd < 0) return;
          take(trailerEnd + 4);
          done();
          continue;
        }
        if (buffer.length < lineEnd + 2 + size + 2) return;
        body.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        take(lineEnd + 2 + size + 2);
        continue;
      }
      if (buffer.length < need) {
        body.push(buffer);
        need -= buffer.length;
        take(buffer.length);
        return;
      }
      body.push(buffer.subarray(0, need));
      take(need);
      need = 0;
      done();
    }
  };
}

const THROTTLED_BODY = JSON.stringify({ code: 'TooManyRequests', message: 'throttled' });
const THROTTLED = Buffer.from(
  'HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n' +
    `content-length: ${Buffer.byteLength(THROTTLED_BODY)}\r\nx-ms-retry-after-ms: 50\r\nx-ms-substatus: 3200\r\n\r\n${THROTTLED_BODY}`,
);

/**
 * Starts the proxy in front of `target`. `classify` names each call; with `throttle`, that share of the calls not
 * classed `metadata` (the SDK's own) is answered 429.
 */
export async function startProxy<K extends { kind: string }>(
  target: URL,
  classify: (request: Request) => K,
  options: { delayMs?: number; throttle?: number } = {},
) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  const delayMs = options.delayMs ?? 0;
  const random = seeded(42);
  let throttle = options.throttle ?? 0;
  let calls: Call<K>[] = [];
  let connections = 0;
  let throttled = 0;
  const later = (send: () => void) => (delayMs === 0 ? send() : setTimeout(send, delayMs));
  const server: Server = createServer((client) => {
    connections += 1;
    const watch = (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    };
    watch(client);
    const pending: Array<{ call: Call<K>; head: boolean }> = [];
    // The service closes a connection idle past its keep-alive, which a throttled client's is while the proxy answers
    // it: the next request then opens another, and the client's connection is closed only with a call unanswered.
    let upstream: Socket | null = null;
    const upstreamSocket = () => {
      if (upstream) return upstream;
      const socket = connect(Number(target.port), target.hostname);
      watch(socket);
      const readResponses = framer(
        'response',
        ({ start, body }) => {
          const status = Number(start.split(' ')[1]);
          if (status >= 100 && status < 200) return;
          const answered = pending.shift();
          if (answered) calls.push({ ...answered.call, status, responseBytes: body.length });
        },
        () => pending[0]?.head ?? false,
      );
      socket.on('data', (chunk: Buffer) => {
        readResponses(chunk);
        client.write(chunk);
      });
      socket.on('close', () => {
        if (upstream === socket) upstream = null;
        if (pending.length > 0) client.destroy();
      });
      return (upstream = socket);
    };
    const readRequests = framer('request', ({ start, headers, body, raw }) => {
      const [method = '', target = ''] = start.split(' ');
      const path = decodeURIComponent(target.split('?')[0] ?? '');
      const call: Call<K> = {
        ...classify({ method, target, path, headers, body }),
        status: 0,
        requestBytes: body.length,
        responseBytes: 0,
        throttled: false,
        at: performance.now(),
      };
      if (call.kind !== 'metadata' && throttle > 0 && random() < throttle) {
        throttled += 1;
        calls.push({ ...call, status: 429, throttled: true });
        client.write(THROTTLED);
        return;
      }
      pending.push({ call, head: method === 'HEAD' });
      later(() => upstreamSocket().write(raw));
    });
    client.on('data', readRequests);
    client.on('end', () => later(() => upstream?.end()));
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  await listen();
  return {
    port,
    endpoint: `http://127.0.0.1:${port}`,
    /** The calls answered since the last `take`, in the order they were answered, without copying them. */
    calls: (): readonly Call<K>[] => calls,
    /** The calls answered since the last `take`, and a fresh list from now. */
    take(): Call<K>[] {
      const taken = calls;
      calls = [];
      return taken;
    },
    /** TCP connections the clients have opened since the proxy started. */
    connections: () => connections,
    /** Calls answered 429 by the proxy since it started. */
    throttled: () => throttled,
    /** The share of calls answered 429 from now on (0: none). */
    setThrottle(share: number) {
      throttle = share;
    },
    /** Drops every connection and refuses new ones, as a service that is down. */
    cut: close,
    /** Takes connections again on the same port. */
    restore: listen,
    close,
  };
}

/** A proxy for a test that cuts a service and restores it, whatever its calls are. */
export const plainProxy = (target: URL, options: { delayMs?: number } = {}) => startProxy(target, () => ({ kind: 'call' }), options);

/** A proxy as `startProxy` starts it. */
export type Proxy<K extends { kind: string }> = Awaited<ReturnType<typeof startProxy<K>>>;
