import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureContainer } from '../adapters/cosmos/client';
import { rootFromEnvironment } from '../host/composition';
import { loadFunctions, startLocalHost } from '../local/host';
import { freePort, freePorts, queueAt, startAzurite, startCosmos } from '../local/services';
import { countingLogger, executionMeter } from './cost/meters';
import { localContainer } from './local-store';
import { hostSettings } from './settings';
import { runMain } from './report';
import { startProxy, type Request } from '../test/support/proxy';
import { storeCall, type StoreCall } from './store-calls';

const projectRoot = join(__dirname, '..');

/** Runs `work` on services started together, and stops them (a proxy closed) however it ends. */
export async function withServices<S extends readonly Service[] | [], T>(
  starts: { [K in keyof S]: Promise<S[K]> },
  work: (...services: S) => Promise<T>,
) {
  const services = (await Promise.all(starts)) as unknown as S;
  try {
    return await work(...services);
  } finally {
    await Promise.all(services.map((service: Service) => ('stop' in service ? service.stop() : service.close())));
  }
}

type Service = { stop(): Promise<unknown> } | { close(): Promise<unknown> };

/** Azurite with blobs and tables too, on free ports: the Functions host keeps its timer locks in blobs. */
export const azuriteWithBlobs = async () => {
  const [port, blobPort, tablePort] = (await freePorts(3)) as [number, number, number];
  return startAzurite({ port, blobAndTable: { blobPort, tablePort } });
};

/** The local Cosmos server in a process of its own (this file run with `--cosmos`); when `metered`, its proxy's calls are `take()`n. */
export async function cosmosProcess(options: { heapMb?: number; metered?: boolean } = {}) {
  const heap = options.heapMb ? [`--max-old-space-size=${options.heapMb}`] : [];
  const args = [...heap, '--import', 'tsx', __filename, '--cosmos', ...(options.metered ? ['--metered'] : [])];
  const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [endpoint, proxyEndpoint] = await new Promise<[string, string]>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const ready = /ready (\S+) (\S+)/.exec((out += chunk.toString()));
      if (ready) resolve([ready[1]!, ready[2]!]);
    });
    child.once('exit', (code) => reject(new Error(`the Cosmos server process exited with ${code}`)));
  });
  child.stdout!.resume();
  return {
    endpoint,
    /** '-' when not metered. */
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

/** `npm run host` as a process group of its own on a free port, timers on; resolves once it answers. */
export async function hostProcess(env: Record<string, string>, timeoutMs = 120_000) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'local', 'serve.ts'), '--port', String(port)], {
    cwd: projectRoot,
    env: { ...process.env, ...env, AzureFunctionsWebHost__hostid: env.HITS_QUEUE! },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // gone
    }
  };
  const host = {
    child,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      signal('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) signal('SIGKILL');
    },
  };
  for (const deadline = Date.now() + timeoutMs; ; await sleep(250)) {
    if (child.exitCode !== null) throw new Error(`a host exited with ${child.exitCode}: ${output}`);
    if ((await fetch(`${host.url}/admin/host/status`).catch(() => null))?.ok) return host;
    if (Date.now() > deadline) throw new Error(`a host did not start within ${timeoutMs} ms: ${output}`);
  }
}

/** A queue REST call: put, get, delete, update (visibility), or the bench's own (create, properties, peek, clear). */
function queueCall({ method, target }: Request): { kind: 'put' | 'get' | 'delete' | 'update' | 'setup' } {
  const url = new URL(target, 'http://queue');
  const messages = /\/messages(\/[^/]+)?$/.exec(url.pathname);
  if (!messages) return { kind: 'setup' };
  if (method === 'POST') return { kind: 'put' };
  if (method === 'GET') return { kind: url.searchParams.get('peekonly') === 'true' ? 'setup' : 'get' };
  if (method === 'DELETE') return { kind: messages[1] ? 'delete' : 'setup' };
  return { kind: method === 'PUT' ? 'update' : 'setup' };
}

/** Messages a metered keep-hits takes at once: the local Cosmos server cannot answer host.json's sixteen in time. */
export const LOCAL_BATCH = 4;

/** The cost and import benches' stack: Azurite with its queue metered, and the Cosmos server metered in a process of its own. */
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
    /** A local host on its own queue and database, executions metered and log lines counted; the calls taken next are its. */
    async host(name: string, more: Record<string, string> = {}) {
      const settings = hostSettings(queue, cosmos.proxyEndpoint, name, more);
      await ensureContainer(localContainer(cosmos.endpoint, settings.COSMOS_DATABASE));
      const logger = countingLogger();
      const meter = executionMeter();
      const root = rootFromEnvironment(settings, { logger });
      const registrations = meter.wrap(await loadFunctions());
      const host = await startLocalHost({ root, port: 0, timers: false, queueSettings: { batchSize: LOCAL_BATCH }, registrations });
      queueProxy.take();
      await cosmos.take();
      return { settings, logger, meter, root, host };
    },
    stop: () => Promise.all([queueProxy.close(), cosmos.stop(), azurite.stop()]),
  };
}

/** Run as the Cosmos server's process: `ready <endpoint> <proxy endpoint or ->`, then each `take` message answered with the calls. */
async function serveCosmos() {
  const cosmos = await startCosmos();
  const metered = process.argv.includes('--metered') ? await startProxy(new URL(cosmos.endpoint), storeCall) : null;
  process.on('message', (message) => message === 'take' && process.send?.({ calls: metered?.take() ?? [] }));
  const stop = () => void cosmos.stop().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  process.stdout.write(`ready ${cosmos.endpoint} ${metered?.endpoint ?? '-'}\n`);
}

if (process.argv.includes('--cosmos')) void runMain(serveCosmos, false);
