import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createHttpServer } from '@vercel/cosmosdb-server';
import { linearQueries } from './cosmos-linear-queries';
import { scopeQueriesToPartitions } from './cosmos-partitions';
import { keepOnDisk } from './cosmos-on-disk';
import { MovableClock, withMovableClock } from './cosmos-clock';

/** Azurite's well-known development account, the one its docs and the Storage SDKs name. */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** The Cosmos DB emulator's well-known key; the local Cosmos server accepts any key. */
export const COSMOS_EMULATOR_KEY = 'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==';

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The connection string of an Azurite queue service on a port (and its blob and table services, when they run). */
export function azuriteConnectionString(port: number, others?: { blobPort: number; tablePort: number }): string {
  const account = `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};`;
  const endpoint = (kind: string, at: number) => `${kind}Endpoint=http://127.0.0.1:${at}/${AZURITE_ACCOUNT};`;
  return (
    account +
    (others ? endpoint('Blob', others.blobPort) : '') +
    endpoint('Queue', port) +
    (others ? endpoint('Table', others.tablePort) : '')
  );
}

/** Where a storage connection string says one of its services is, or undefined when it names none. */
export function serviceUrl(connectionString: string | undefined, kind: 'Blob' | 'Queue' | 'Table'): URL | undefined {
  const found = new RegExp(`${kind}Endpoint=([^;]+)`).exec(connectionString ?? '')?.[1];
  return found !== undefined && URL.canParse(found) ? new URL(found) : undefined;
}

/**
 * An Azurite connection string whose queue service is reached at another origin (a proxy's, `http://127.0.0.1:<port>`),
 * the account's path and the other services as they were.
 */
export function queueAt(connectionString: string, origin: string): string {
  return connectionString.replace(/QueueEndpoint=https?:\/\/[^/;]+/, `QueueEndpoint=${origin}`);
}

/** A running Azurite queue service. */
export interface Azurite {
  port: number;
  connectionString: string;
  stop(): Promise<void>;
}

const azuriteDist = () => join(dirname(require.resolve('azurite/package.json')), 'dist', 'src');

/**
 * Starts Azurite's queue service as a child process, without telemetry (it would try to reach the internet), in memory
 * or on disk under `location` so a restart keeps the queue. With `blobAndTable`, its blob and table services run too,
 * on those ports: the real Functions host (`func start`) keeps its timer locks in blobs. `preload` names a script the
 * process loads first (node's `--require`), as a test's own clock for it (test/support/azurite-clock.cjs).
 */
export async function startAzurite(
  options: { port?: number; location?: string; blobAndTable?: { blobPort: number; tablePort: number }; preload?: string } = {},
): Promise<Azurite> {
  const port = options.port ?? (await freePort());
  const others = options.blobAndTable;
  const entry = others
    ? [
        join(azuriteDist(), 'azurite.js'),
        '--blobHost',
        '127.0.0.1',
        '--blobPort',
        String(others.blobPort),
        '--tableHost',
        '127.0.0.1',
        '--tablePort',
        String(others.tablePort),
      ]
    : [join(azuriteDist(), 'queue', 'main.js')];
  const args = [
    ...entry,
    '--queueHost',
    '127.0.0.1',
    '--queuePort',
    String(port),
    '--disableTelemetry',
    '--skipApiVersionCheck',
    '--loose',
    // No access log: a line a request, which nobody reads, costs Azurite CPU.
    '--silent',
  ];
  args.push(...(options.location ? ['--location', options.location] : ['--inMemoryPersistence']));
  // Through azurite-process.cjs, which makes Azurite's queue calls cost the same however many messages are queued.
  const preload = options.preload ? ['--require', options.preload] : [];
  const child: ChildProcess = spawn(process.execPath, [...preload, join(__dirname, 'azurite-process.cjs'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    // One that does not come up is stopped, so no Azurite outlives a failed start.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Azurite did not start on ${port}: ${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = output.match(/successfully listen/g)?.length ?? 0;
      if (listening >= (others ? 3 : 1)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Azurite exited with ${code}: ${output}`));
    });
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    port,
    connectionString: azuriteConnectionString(port, others),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** How long the local Cosmos server keeps an idle connection open: 4 minutes, as Azure's load balancers do. */
export const KEPT_IDLE_MS = 240_000;

/** A running local Cosmos server (plain HTTP). */
export interface CosmosServer {
  port: number;
  endpoint: string;
  /** How many documents were loaded from `file` at start: null in memory, or when there was no file yet. */
  loaded: number | null;
  /** The clock its `_ts` is stamped by, when started with `movableClock` (also moved by `POST /_local/clock`); else null. */
  clock: MovableClock | null;
  /** Stops it; with a `file`, after a last save of what changed. */
  stop(): Promise<void>;
}

/**
 * Starts `@vercel/cosmosdb-server` in this process. A query that names a partition key reads only that partition, as
 * in Azure (the server alone would scan the whole account), and a query's time grows with the documents it reads, not
 * with their square. Its documents live in memory, or with `file` are loaded from that file at start and saved to it
 * every `saveEveryMs` while they change and at stop, each save written whole (see cosmos-on-disk.ts). With
 * `movableClock` (the tests' servers), `_ts` is stamped by a clock the tests move forward rather than wait for
 * (cosmos-clock.ts).
 */
export async function startCosmos(
  options: { port?: number; file?: string; saveEveryMs?: number; movableClock?: boolean } = {},
): Promise<CosmosServer> {
  const port = options.port ?? (await freePort());
  linearQueries();
  // Kept alive, as Cosmos DB's gateway keeps them: published, the server closes the connection after every answer, so
  // each call costs a new TCP connection at both ends (about 1.8 ms of CPU a call in the scale bench, both ends together).
  const created = createHttpServer({ keepAlive: true });
  // Node closes a kept connection after 5 s idle, so a client that reuses it at that moment reads `socket hang up`
  // (seen mid-fold on a busy machine); Azure's front ends keep an idle connection for minutes.
  created.keepAliveTimeout = KEPT_IDLE_MS;
  // Said on each answer, as Node says it unless a handler writes `connection` itself (this server's does).
  created.prependListener('request', (_request: IncomingMessage, response: ServerResponse) =>
    response.setHeader('keep-alive', `timeout=${KEPT_IDLE_MS / 1000}`),
  );
  const disk = options.file ? await keepOnDisk(created, { file: options.file, everyMs: options.saveEveryMs }) : null;
  const scoped: Server = scopeQueriesToPartitions(created);
  const clock = options.movableClock ? new MovableClock() : null;
  const server: Server = clock ? withMovableClock(scoped, clock) : scoped;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port,
    endpoint: `http://127.0.0.1:${port}`,
    loaded: disk?.loaded ?? null,
    clock,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await disk?.stop();
    },
  };
}
