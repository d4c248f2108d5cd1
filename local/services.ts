import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createHttpServer } from '@vercel/cosmosdb-server';
import { linearQueries } from './cosmos/linear-queries';
import { queriesParsedOnce } from './cosmos/query-cache';
import { scopeQueriesToPartitions } from './cosmos/partitions';
import { keepOnDisk } from './cosmos/on-disk';
import { MovableClock, withMovableClock } from './cosmos/clock';

export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** The local Cosmos server accepts any key. */
export const COSMOS_EMULATOR_KEY = 'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==';

/** Ports free now, held open together while chosen, so no two of them are the same port. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createNetServer());
  try {
    return await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.once('error', reject);
            server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
          }),
      ),
    );
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

export const freePort = async (): Promise<number> => (await freePorts(1))[0]!;

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

/** Undefined when it names none. */
export function serviceUrl(connectionString: string | undefined, kind: 'Blob' | 'Queue' | 'Table'): URL | undefined {
  const found = new RegExp(`${kind}Endpoint=([^;]+)`).exec(connectionString ?? '')?.[1];
  return found !== undefined && URL.canParse(found) ? new URL(found) : undefined;
}

/** The account's path and the other services stay as they were. */
export function queueAt(connectionString: string, origin: string): string {
  return connectionString.replace(/QueueEndpoint=https?:\/\/[^/;]+/, `QueueEndpoint=${origin}`);
}

export interface Azurite {
  port: number;
  connectionString: string;
  stop(): Promise<void>;
}

const azuriteDist = () => join(dirname(require.resolve('azurite/package.json')), 'dist', 'src');

/**
 * Without telemetry, which would try to reach the internet; on disk under `location`, a restart keeps the queue.
 * The real `func start` keeps its timer locks in blobs, hence `blobAndTable`.
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
    // An access log nobody reads costs Azurite CPU.
    '--silent',
  ];
  args.push(...(options.location ? ['--location', options.location] : ['--inMemoryPersistence']));
  // azurite-process.cjs makes Azurite's queue calls cost the same however many messages are queued.
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

/** 4 minutes, as Azure's load balancers do. */
export const KEPT_IDLE_MS = 240_000;

export interface CosmosServer {
  port: number;
  endpoint: string;
  /** Null in memory, or when there was no file yet. */
  loaded: number | null;
  /** Null unless started with `movableClock`. */
  clock: MovableClock | null;
  /** With a `file`, after a last save. */
  stop(): Promise<void>;
}

/**
 * A query that names a partition reads only it, as in Azure, and its time grows with the documents read, not their square.
 * With `file` the documents are saved whole as they change (cosmos/on-disk.ts); with `movableClock` tests move `_ts`.
 */
export async function startCosmos(
  options: { port?: number; file?: string; saveEveryMs?: number; movableClock?: boolean } = {},
): Promise<CosmosServer> {
  const port = options.port ?? (await freePort());
  linearQueries();
  queriesParsedOnce();
  // Kept alive as Cosmos DB's gateway keeps them, since a new TCP connection for each call costs about 1.8 ms of CPU.
  const created = createHttpServer({ keepAlive: true });
  // Node closes an idle kept connection after 5 s, and a client reusing it then reads `socket hang up`.
  created.keepAliveTimeout = KEPT_IDLE_MS;
  // Said on each answer, as Node says it unless a handler writes `connection` itself.
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
