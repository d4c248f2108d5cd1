import { createServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { HttpRequest, HttpResponse, InvocationContext, type Cookie, type HttpHandler, type Timer } from '@azure/functions';
import { Cron } from 'croner';
import { z } from 'zod';
import { hostRoute, registered, type HttpRegistration, type Registration } from '../host/registry';
import { queueLocation, type Root } from '../host/composition';
import { queueClient } from '../adapters/azure-hit-queue';
import { readHostJson, type HostJson } from './host-json';
import { listenToQueue, type QueueListener } from './queue-listener';
import { errorLine } from '../shared/core/errors';
import { outboxAnswer } from './outbox-page';
import { KEPT_IDLE_MS } from './services';
import { badRequest } from '../shared/core/result';
import { errorAnswer } from '../host/http/envelope';
import { isLoopback } from '../shared/core/identity/network';
import type { Lease } from '../shared/core/ports/lease';
import { blobLease, lockBlob } from '../adapters/azure-blob-lease';
import { DEFAULT_LOCK_TIMING, holdLock, type HeldLock, type LockTiming } from './singleton';

/** Tests shorten host.json's retry delay here. */
export interface LocalHostOptions {
  root: Root;
  port?: number;
  hostname?: string;
  /** Off in tests, which run timers through the admin route. */
  timers?: boolean;
  /** Off to test the endpoints alone. */
  queues?: boolean;
  queueSettings?: Partial<HostJson['extensions']['queues']>;
  /** Shared by every host on the same storage; by default a blob lease at `azure-webjobs-hosts/locks/<hostId>/<function>`. */
  singleton?: { hostId?: string; lease?: (functionName: string) => Lease } & Partial<LockTiming>;
  /** Instead of those under functions/, for a test's own timer. */
  registrations?: readonly Registration[];
  /** Read for `AzureWebJobs.<function>.Disabled`; the process's environment by default. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Unset, loopback is loopback. */
  loopbackAs?: string;
}

export interface LocalHost {
  url: string;
  port: number;
  /** Until every queue is empty and no invocation is running. */
  drain(timeoutMs?: number): Promise<void>;
  /** As `POST /admin/functions/<name>` does. */
  run(name: string, input?: unknown): Promise<void>;
  listeners(): ReadonlyMap<string, QueueListener>;
  scheduled(): readonly string[];
  stop(): Promise<void>;
}

const functionsDir = join(__dirname, '..', 'functions');

/** As the Functions host loads `main`'s glob; each file registers itself. */
export async function loadFunctions(): Promise<readonly Registration[]> {
  const files = readdirSync(functionsDir).filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts'));
  for (const file of files) await import(join(functionsDir, file));
  return registered();
}

/** A disabled function's trigger is ignored, but it still runs through the admin route, as in Azure. */
export function isDisabled(name: string, environment: Readonly<Record<string, string | undefined>>): boolean {
  const value = environment[`AzureWebJobs.${name}.Disabled`]?.trim().toLowerCase();
  return value === 'true' || value === '1';
}

/** The pattern captures the parameters of `admin/subjects/{id}`. */
function routePattern(prefix: string, route: string): RegExp {
  const escaped = route
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)(\?)?\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      return param[2] ? `?(?<${param[1]}>[^/]*)` : `(?<${param[1]}>[^/]+)`;
    })
    .join('/');
  return new RegExp(`^/${prefix ? `${prefix}/` : ''}${escaped}/?$`, 'i');
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function setCookieHeader(cookie: Cookie): string {
  const parts = [`${cookie.name}=${cookie.value}`];
  if (cookie.maxAge !== undefined) parts.push(`Max-Age=${cookie.maxAge}`);
  if (cookie.expires !== undefined) parts.push(`Expires=${new Date(cookie.expires).toUTCString()}`);
  if (cookie.domain) parts.push(`Domain=${cookie.domain}`);
  parts.push(`Path=${cookie.path ?? '/'}`);
  if (cookie.secure) parts.push('Secure');
  if (cookie.httpOnly) parts.push('HttpOnly');
  if (cookie.sameSite) parts.push(`SameSite=${cookie.sameSite}`);
  return parts.join('; ');
}

/** Like Azure's front end, the local host appends the connection's address to X-Forwarded-For, so the app reads both alike. */
function toHttpRequest(
  request: IncomingMessage,
  body: Buffer,
  url: URL,
  params: Record<string, string>,
  loopbackAs: string | undefined,
): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const socket = request.socket;
  const remote = socket.remoteAddress ?? '';
  const address = loopbackAs !== undefined && isLoopback(remote) ? loopbackAs : remote;
  const peer = address.includes(':') ? `[${address}]:${socket.remotePort}` : `${address}:${socket.remotePort}`;
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${peer}` : peer;
  return new HttpRequest({
    method: request.method ?? 'GET',
    url: url.toString(),
    headers,
    query: Object.fromEntries(url.searchParams),
    params,
    body: body.length > 0 ? { bytes: body } : undefined,
  });
}

async function writeResponse(response: ServerResponse, init: Awaited<ReturnType<HttpHandler>>): Promise<void> {
  const result = init instanceof HttpResponse ? init : new HttpResponse(init);
  const body = Buffer.from(await result.arrayBuffer());
  const headers: Record<string, string | string[]> = {};
  result.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (result.cookies.length > 0) headers['set-cookie'] = result.cookies.map(setCookieHeader);
  response.writeHead(result.status, headers);
  response.end(body);
}

/** One error envelope, not Node's bare status line: 431 over Node's header limit, else 400. */
function answerUnreadable(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const tooLong = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({
    error: tooLong
      ? {
          code: 'request_too_large',
          message: `the URL and headers are over ${maxHeaderSize / 1024} KB, more than this host reads: send a shorter URL (a long path goes in the body of POST /api/hits)`,
        }
      : { code: 'bad_request', message: 'the request could not be read as HTTP/1.1' },
  });
  const status = tooLong ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The one error envelope's 400, naming the part of the request that could not be read. */
function badInput(path: string, message: string) {
  const { status, body } = errorAnswer(badRequest([{ path, message }]));
  return { status, jsonBody: body };
}

/** Null when the request line's target or the Host header cannot make a URL, as Azure's front end refuses them. */
function requestUrl(request: IncomingMessage): URL | null {
  try {
    return new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  } catch {
    return null;
  }
}

const adminBody = z.object({ input: z.unknown().optional() });

/** `POST /admin/functions/<name>`'s body: nothing, or a JSON object whose `input` is the function's. */
function adminInput(body: Buffer): { input: unknown } | null {
  if (body.length === 0) return { input: undefined };
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  const read = adminBody.safeParse(json);
  return read.success ? { input: read.data.input } : null;
}

/** As the Functions host resolves `%SETTING%`. */
function resolveSettings(expression: string, settings: Root['settings']): string {
  return expression.replace(/%(\w+)%/g, (whole, name: string) => {
    const value = (settings as Record<string, unknown>)[name] ?? process.env[name];
    if (typeof value !== 'string') throw new Error(`the binding expression ${whole} names no setting`);
    return value;
  });
}

const timerInput = (schedule: string): Timer => ({
  isPastDue: false,
  schedule: { adjustForDST: false },
  scheduleStatus: {
    last: new Date().toISOString(),
    next: new Cron(schedule, { paused: true }).nextRun()?.toISOString() ?? '',
    lastUpdated: new Date().toISOString(),
  },
});

/** Stands in for Core Tools where the real host cannot be installed, with `POST /admin/functions/<name>` to run a non-HTTP function now. */
export async function startLocalHost(options: LocalHostOptions): Promise<LocalHost> {
  const { root } = options;
  const hostJson = readHostJson();
  const queueSettings = { ...hostJson.extensions.queues, ...options.queueSettings };
  const prefix = hostJson.extensions.http.routePrefix;
  const registrations = options.registrations ?? (await loadFunctions());
  const disabled = (name: string) => isDisabled(name, options.environment ?? process.env);
  const logger = root.logger;
  const timing: LockTiming = { ...DEFAULT_LOCK_TIMING, ...options.singleton };
  const hostId = options.singleton?.hostId ?? process.env.AzureFunctionsWebHost__hostid ?? 'headcount-local';
  const blob = root.blob;
  const leaseFor =
    options.singleton?.lease ?? (blob ? (name: string) => blobLease(blob, lockBlob(hostId, name), timing.leaseSeconds) : null);
  const locks: HeldLock[] = [];
  const occurrences = new Set<Promise<unknown>>();

  const http = registrations
    .filter((r): r is HttpRegistration => r.kind === 'http' && !disabled(r.name))
    .map((r) => ({ registration: r, pattern: routePattern(prefix, hostRoute(r)), handler: r.make(root) }));
  const others = new Map<string, (input: unknown) => Promise<unknown>>();
  const listeners = new Map<string, QueueListener>();
  const crons: { name: string; cron: Cron }[] = [];

  for (const registration of registrations) {
    const context = () => new InvocationContext({ functionName: registration.name, invocationId: randomUUID() });
    if (registration.kind === 'queue') {
      const handler = registration.make(root);
      others.set(registration.name, (input) => Promise.resolve(handler(input, context())));
      if (options.queues !== false && !disabled(registration.name)) {
        const location = queueLocation(root.settings);
        const queueName = resolveSettings(registration.queueName, root.settings);
        const queue = queueClient(location, queueName);
        const poison = queueClient(location, `${queueName}-poison`);
        await queue.createIfNotExists();
        await poison.createIfNotExists();
        listeners.set(
          registration.name,
          listenToQueue(registration, (payload, ctx) => Promise.resolve(handler(payload, ctx)), queue, poison, queueSettings, logger),
        );
      }
    }
    if (registration.kind === 'timer') {
      const handler = registration.make(root);
      const run = () => Promise.resolve(handler(timerInput(registration.schedule), context()));
      others.set(registration.name, run);
      if (options.timers !== false && !disabled(registration.name)) {
        if (!leaseFor)
          logger.warn('timers run without a lock: the storage has no Blob service, so run one host only', { function: registration.name });
        const lock = leaseFor ? await holdLock(leaseFor(registration.name), timing, logger, registration.name) : null;
        if (lock) locks.push(lock);
        crons.push({
          name: registration.name,
          cron: new Cron(
            registration.schedule,
            { protect: true, catch: (error) => logger.error('timer failed', { function: registration.name, reason: String(error) }) },
            async () => {
              // Only the instance holding the timer's lock runs the occurrence, as in the Functions host.
              if (lock && !lock.holds()) return;
              const occurrence = run();
              occurrences.add(occurrence);
              await occurrence.finally(() => occurrences.delete(occurrence));
            },
          ),
        });
      }
    }
  }

  const runNow = async (name: string, input?: unknown) => {
    const run = others.get(name);
    if (!run) throw new Error(`no non-HTTP function named ${name}`);
    await run(input);
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = requestUrl(request);
      const body = await readBody(request);
      if (url === null) return writeResponse(response, badInput('host', 'must be a host name or address, and a port if any'));
      const admin = /^\/admin\/functions\/([\w-]+)$/.exec(url.pathname);
      if (admin && request.method === 'POST') {
        const name = admin[1]!;
        if (!others.has(name))
          return writeResponse(response, {
            status: 404,
            jsonBody: { error: { code: 'not_found', message: `no non-HTTP function named ${name}` } },
          });
        const read = adminInput(body);
        if (read === null) return writeResponse(response, badInput('(body)', 'must be empty, or a JSON object: {"input": …}'));
        try {
          await runNow(name, read.input);
          return writeResponse(response, { status: 202 });
        } catch (error) {
          logger.error('admin run failed', { function: name, reason: errorLine(error) });
          return writeResponse(response, { status: 500, jsonBody: { error: { code: 'function_failed', message: `${name} failed` } } });
        }
      }
      const outbox = /^\/admin\/outbox(?:\/([\w-]+))?$/.exec(url.pathname);
      // The local stack's mail, read where it is written: never deployed, as the rest of this host.
      if (outbox && request.method === 'GET') return writeResponse(response, await outboxAnswer(root.settings.EMAIL_OUTBOX, outbox[1]));
      if (url.pathname === '/admin/host/status') return writeResponse(response, { status: 200, jsonBody: { state: 'Running' } });
      if (url.pathname === '/admin/functions' && request.method === 'GET') {
        return writeResponse(response, {
          status: 200,
          jsonBody: registrations.map(({ make: _make, ...rest }) => rest),
        });
      }
      for (const route of http) {
        const match = route.pattern.exec(url.pathname);
        if (!match) continue;
        if (!route.registration.methods.includes((request.method ?? 'GET').toUpperCase() as never)) {
          return writeResponse(response, {
            status: 405,
            jsonBody: { error: { code: 'method_not_allowed', message: `${request.method} is not allowed here` } },
          });
        }
        const params = Object.fromEntries(Object.entries(match.groups ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;
        const context = new InvocationContext({ functionName: route.registration.name, invocationId: randomUUID() });
        try {
          return await writeResponse(response, await route.handler(toHttpRequest(request, body, url, params, options.loopbackAs), context));
        } catch (error) {
          logger.error('function failed', { function: route.registration.name, reason: errorLine(error) });
          return writeResponse(response, { status: 500, jsonBody: { error: { code: 'internal_error', message: 'the function failed' } } });
        }
      }
      return writeResponse(response, {
        status: 404,
        jsonBody: { error: { code: 'not_found', message: `no function serves ${url.pathname}` } },
      });
    })().catch((error) => {
      logger.error('local host could not answer', { reason: String(error) });
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'internal_error', message: 'the local host could not answer' } }));
    });
  });

  server.on('clientError', answerUnreadable);
  // Kept idle as Azure's front end keeps them: Node's 5 s closes a connection a busy client is just reusing, which then reads ECONNRESET.
  server.keepAliveTimeout = KEPT_IDLE_MS;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 7071, options.hostname ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async drain(timeoutMs) {
      for (const listener of listeners.values()) await listener.drain(timeoutMs);
    },
    run: runNow,
    listeners: () => listeners,
    scheduled: () => crons.map(({ name }) => name),
    async stop() {
      for (const { cron } of crons) cron.stop();
      // A running occurrence finishes before the lock is released, so no other instance starts the timer beside it.
      await Promise.allSettled([...occurrences]);
      await Promise.all(locks.map((lock) => lock.stop()));
      await Promise.all([...listeners.values()].map((listener) => listener.stop()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
