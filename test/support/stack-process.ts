import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { azuriteConnectionString, freePort } from '../../host/local/services';

const projectRoot = join(__dirname, '..', '..');

/** The ports and data folder of a stack a test runs as `npm start`, the same for each of its starts. */
export interface StackPlace {
  env: Record<string, string>;
  url: string;
  queueConnectionString: string;
}

/** Free ports for every service of a stack, its keys, a data folder, and any other settings. */
export async function stackPlace(dataDir: string, settings: Record<string, string> = {}): Promise<StackPlace> {
  const [blobPort, queuePort, tablePort, cosmosPort, hostPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const storage = azuriteConnectionString(queuePort, { blobPort, tablePort });
  return {
    url: `http://127.0.0.1:${hostPort}`,
    queueConnectionString: storage,
    env: {
      AzureWebJobsStorage: storage,
      COSMOS_ENDPOINT: `http://127.0.0.1:${cosmosPort}`,
      PORT: String(hostPort),
      HEADCOUNT_DATA_DIR: dataDir,
      HASH_KEY: 'stack-test-hash-key-0123456789',
      INGEST_KEY: 'stack-test-ingest-key',
      OPERATOR_KEY: 'stack-test-operator-key',
      FOLD_SETTLE_SECONDS: '1',
      // Its Cosmos server's clock is moved by the test past the settle margin, never waited for.
      HEADCOUNT_STORE_CLOCK: 'movable',
      ...settings,
    },
  };
}

/** A running `npm start`, in a process group of its own, as a terminal runs it. */
export interface StackProcess {
  output(): string;
  /** Ctrl-C: SIGINT to the whole group, as a terminal sends it; resolves when every process has let go of the output. */
  interrupt(): Promise<void>;
  /** SIGKILL to the whole group: the stack and its Azurite die at once, mid-whatever, as in a crash. */
  kill(): Promise<void>;
}

/** Runs `npm start -- <args>` with the place's settings and waits until it says it is up. */
export async function startStack(place: StackPlace, args: readonly string[] = []): Promise<StackProcess> {
  const child: ChildProcess = spawn('npm', ['start', '--', ...args], {
    cwd: projectRoot,
    env: { ...process.env, ...place.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close' comes once every process holding the pipes (npm, tsx, the stack) has exited.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), 120_000);
    const check = () => {
      if (output.includes('Ctrl-C stops them all.')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void closed.then(() => {
      clearTimeout(timer);
      reject(new Error(`npm start exited:\n${output}`));
    });
  });
  const signal = async (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      /* already gone */
    }
    await closed;
  };
  return { output: () => output, interrupt: () => signal('SIGINT'), kill: () => signal('SIGKILL') };
}

/** Runs `npm start -- <args>` that is to fail, and gives its exit status and output once every process has exited. */
export async function failedStart(place: StackPlace, args: readonly string[] = []): Promise<{ status: number | null; output: string }> {
  const child = spawn('npm', ['start', '--', ...args], {
    cwd: projectRoot,
    env: { ...process.env, ...place.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    // One that comes up is no failed start: stopped, so the test fails on its status rather than waiting.
    if (output.includes('Ctrl-C stops them all.')) process.kill(-child.pid!, 'SIGKILL');
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { status, output };
}

/** Whether anything accepts a TCP connection on a port of loopback. */
export function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
