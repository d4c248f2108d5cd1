import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { azuriteConnectionString, freePorts } from '../../local/services';

const projectRoot = join(__dirname, '..', '..');

/** The ports and data folder of a stack a test runs as `npm start`, the same for each of its starts. */
export interface StackPlace {
  env: Record<string, string>;
  url: string;
  queueConnectionString: string;
}

/** Free ports for every service of a stack, its keys, a data folder, and any other settings. */
export async function stackPlace(dataDir: string, settings: Record<string, string> = {}): Promise<StackPlace> {
  const [blobPort, queuePort, tablePort, cosmosPort, hostPort] = (await freePorts(5)) as [number, number, number, number, number];
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
      PERSON_HASH_COST: '1',
      // Its Cosmos server's clock is moved by the test past the settle margin, never waited for.
      HEADCOUNT_STORE_CLOCK: 'movable',
      ...settings,
    },
  };
}

/** A running `npm start`, in a process group of its own, as a terminal runs it. */
export interface StackProcess {
  output(): string;
  /** Ctrl-C: SIGINT to the whole group, as a terminal sends it; gives the group's processes still running after. */
  interrupt(): Promise<number[]>;
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
    return leftIn(child.pid!);
  };
  return {
    output: () => output,
    interrupt: () => signal('SIGINT'),
    kill: async () => void (await signal('SIGKILL')),
  };
}

/** A failed start: its exit status, its output, and the processes of its group still running once npm has exited. */
export interface FailedStart {
  status: number | null;
  output: string;
  left: number[];
}

/** Runs `npm start -- <args>` that is to fail, and gives what it said and what it left. */
export async function failedStart(place: StackPlace, args: readonly string[] = []): Promise<FailedStart> {
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
  return { status, output, left: await leftIn(child.pid!) };
}

/**
 * What of a group still runs once its exiting processes are gone: a child may still be exiting when npm's pipes close,
 * where one left behind runs on.
 */
async function leftIn(group: number): Promise<number[]> {
  for (let look = 0; look < 100; look += 1) {
    const left = runningIn(group);
    if (left.length === 0) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return runningIn(group);
}

/**
 * The processes of a process group that still run (zombies hold no port). A start's Azurite and host stay in its
 * group even when re-parented, and unlike a port this is never taken by another test file's server.
 */
function runningIn(group: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // pid (comm) state ppid pgrp ...: comm may hold spaces, so fields are read after its closing parenthesis.
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop()!.trim().split(' ');
        return Number(fields[2]) === group && fields[0] !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
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
