import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type Account from '@vercel/cosmosdb-server/lib/account';
import { onAccount } from './cosmos-account';
import { isQuery } from './cosmos-partitions';
import { documentCount, restoreSnapshot, snapshotOf, snapshotSchema, type CosmosSnapshot } from './cosmos-snapshot';
import { clearUnfinished, writeFileWhole } from './saved-file';

/** How often the local Cosmos server's documents are saved while they change, when the caller says nothing else. */
export const DEFAULT_SAVE_EVERY_MS = 2_000;

/** The local Cosmos server's documents kept in a file: loaded at start, saved while they change and at stop. */
export interface CosmosOnDisk {
  /** How many documents were loaded at start; null when there was no file (a first start, or after --fresh). */
  loaded: number | null;
  /** Saves now if anything changed since the last save (one save at a time; a call during one waits for it). */
  save(): Promise<void>;
  /** Stops the periodic saves and saves what changed: call it after the server has stopped taking requests. */
  stop(): Promise<void>;
  /** How many saves have completed. */
  saves(): number;
}

/** The snapshot in `file`, or null when there is none; a file that is not a whole snapshot stops the start. */
function readSnapshot(file: string): CosmosSnapshot | null {
  if (!existsSync(file)) return null;
  let parsed;
  try {
    parsed = snapshotSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new Error(`${file} is not JSON (${error instanceof Error ? error.message : String(error)}); move it away or start with --fresh`, {
      cause: error,
    });
  }
  // Starting empty over a file that could not be read would save the empty account over it: refuse instead.
  if (!parsed.success)
    throw new Error(`${file} is not a saved local Cosmos account (${parsed.error.issues[0]?.message}); move it away or start with --fresh`);
  return parsed.data;
}

const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Keeps a `@vercel/cosmosdb-server` server's account in `file`. Call it on a server from `createHttpServer()` before
 * it listens: the saved account is loaded when it starts listening, before any request. A save is made every
 * `everyMs` while writes have come in since the last one, each a snapshot taken between two requests and written whole
 * (a temporary file renamed over the old one), so a process killed at any moment leaves the last completed save.
 */
export async function keepOnDisk(server: Server, options: { file: string; everyMs?: number }): Promise<CosmosOnDisk> {
  const { file } = options;
  await clearUnfinished(file);
  const snapshot = readSnapshot(file);
  let account: Account | undefined;
  onAccount(server, (made) => {
    if (snapshot) restoreSnapshot(made, snapshot);
    account = made;
  });

  let changed = false;
  // Marked when a write has been answered, not when it arrives: a save taken between the two would miss it unmarked.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (writes.has(req.method ?? '') && !isQuery(req)) res.once('finish', () => (changed = true));
  });

  let saving: Promise<void> = Promise.resolve();
  let completed = 0;
  const saveOnce = async () => {
    if (!changed || account === undefined) return;
    changed = false;
    // Serialised in this same tick: the text is the account at one instant, whatever the server does meanwhile.
    const text = JSON.stringify(snapshotOf(account, new Date()));
    try {
      await writeFileWhole(file, text);
      completed += 1;
    } catch (error) {
      changed = true;
      throw error;
    }
  };
  const save = () => (saving = saving.catch(() => undefined).then(saveOnce));
  const timer = setInterval(() => {
    save().catch((error: unknown) => console.error(`the local Cosmos documents could not be saved to ${file}: ${String(error)}`));
  }, options.everyMs ?? DEFAULT_SAVE_EVERY_MS);
  timer.unref();

  return {
    loaded: snapshot ? documentCount(snapshot) : null,
    save,
    async stop() {
      clearInterval(timer);
      await save();
    },
    saves: () => completed,
  };
}
