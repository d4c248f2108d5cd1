import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureContainer } from '../adapters/cosmos/client';
import { rootFromEnvironment } from '../host/composition';
import { loadFunctions, startLocalHost } from '../host/local/host';
import { freePort, queueAt, startAzurite } from '../host/local/services';
import { countingLogger, executionMeter } from './cost/meters';
import { localContainer } from './local-store';
import { hostSettings } from './settings';
import { startProxy, type Request } from '../test/support/proxy';
import type { StoreCall } from './store-calls';

/** Azurite with its blob and table services too, on free ports: the Functions host keeps its timer locks in blobs. */
export const azuriteWithBlobs = async () => startAzurite({ blobAndTable: { blobPort: await freePort(), tablePort: await freePort() } });

/**
 * The local Cosmos server in a process of its own (bench/cosmos-process.ts), with a heap of `heapMb` when given; when
 * `metered`, behind a proxy in that process whose calls `take()` answers (and empties).
 */
export async function cosmosProcess(options: { heapMb?: number; metered?: boolean } = {}) {
  const child = spawn(
    process.execPath,
    [
      ...(options.heapMb ? [`--max-old-space-size=${options.heapMb}`] : []),
      '--import',
      'tsx',
      join(__dirname, 'cosmos-process.ts'),
      ...(options.metered ? ['--metered'] : []),
    ],
    { cwd: join(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  const [endpoint, proxyEndpoint] = await new Promise<[string, string]>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /ready (\S+) (\S+)/.exec(out);
      if (ready) resolve([ready[1]!, ready[2]!]);
    });
    child.once('exit', (code) => reject(new Error(`the Cosmos server process exited with ${code}`)));
  });
  child.stdout!.resume();
  return {
    endpoint,
    /** The metering proxy's endpoint ('-' when not metered). */
    proxyEndpoint,
    take: () =>
      new Promise<StoreCall[]>((resolve) => {
        child.once('message', (message) => resolve((message as { calls: StoreCall[] }).calls));
        child.send('take');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A queue REST call, classed: put, get, delete, update (visibility), or the bench's own (create, properties, peek, clear). */
function queueCall({ method, target }: Request): { kind: 'put' | 'get' | 'delete' | 'update' | 'setup' } {
  const url = new URL(target, 'http://queue');
  const messages = /\/messages(\/[^/]+)?$/.exec(url.pathname);
  if (!messages) return { kind: 'setup' };
  if (method === 'POST') return { kind: 'put' };
  if (method === 'GET') return { kind: url.searchParams.get('peekonly') === 'true' ? 'setup' : 'get' };
  if (method === 'DELETE') return { kind: messages[1] ? 'delete' : 'setup' };
  return { kind: method === 'PUT' ? 'update' : 'setup' };
}

/**
 * Messages a metered host's keep-hits takes at once: not host.json's sixteen, since the local Cosmos server on a small
 * machine cannot answer sixteen messages' calls at once within the SDK's timeout, and a timed-out delivery is counted
 * again on its retry.
 */
export const LOCAL_BATCH = 4;

/**
 * The cost and import benches' stack: Azurite (blob, queue and table) with a proxy counting the queue's calls in front
 * of its queue service (`queue` is the connection string through it), and the Cosmos server metered in a process of its
 * own.
 */
export async function meteredStack() {
  const azurite = await azuriteWithBlobs();
  const cosmos = await cosmosProcess({ metered: true });
  const queueProxy = await startProxy(new URL(`http://127.0.0.1:${azurite.port}`), queueCall);
  const queue = queueAt(azurite.connectionString, queueProxy.endpoint);
  return {
    azurite,
    cosmos,
    queueProxy,
    queue,
    /**
     * A local host of its own on the stack (a new queue and database named `name`), its executions metered and its log
     * lines counted (echoed to stderr when `echo`); the calls metered before it are dropped, so the next taken are its.
     */
    async host(name: string, more: Record<string, string> = {}, echo = false) {
      const settings = hostSettings(queue, cosmos.proxyEndpoint, name, more);
      await ensureContainer(localContainer(cosmos.endpoint, settings.COSMOS_DATABASE));
      const logger = countingLogger(echo);
      const meter = executionMeter();
      const root = rootFromEnvironment(settings, { logger });
      const registrations = meter.wrap(await loadFunctions());
      const host = await startLocalHost({ root, port: 0, timers: false, queueSettings: { batchSize: LOCAL_BATCH }, registrations });
      queueProxy.take();
      await cosmos.take();
      return { settings, logger, meter, root, host };
    },
    async stop() {
      await queueProxy.close();
      await cosmos.stop();
      await azurite.stop();
    },
  };
}
