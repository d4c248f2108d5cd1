import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type Account from '@vercel/cosmosdb-server/lib/account';
import { onAccount } from './account';
import { isQuery } from './partitions';
import { documentCount, restoreSnapshot, snapshotOf, snapshotSchema, type CosmosSnapshot } from './snapshot';
import { clearUnfinished, writeFileWhole } from './saved-file';

export const DEFAULT_SAVE_EVERY_MS = 2_000;

/** Loaded at start, saved while they change and at stop. */
export interface CosmosOnDisk {
  /** Null when there was no file, on a first start or after --fresh. */
  loaded: number | null;
  /** Only if anything changed; a call during a save waits for it. */
  save(): Promise<void>;
  /** Call it after the server has stopped taking requests. */
  stop(): Promise<void>;
  saves(): number;
}

/** A file that is not a whole snapshot stops the start. */
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
  // Starting empty would save the empty account over the file, so refuse instead.
  if (!parsed.success)
    throw new Error(`${file} is not a saved local Cosmos account (${parsed.error.issues[0]?.message}); move it away or start with --fresh`);
  return parsed.data;
}

const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Call before the server listens; each save is written whole and renamed, so a killed process leaves the last one. */
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
  // Marked once a write is answered, not when it arrives, so a save between the two cannot miss it.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (writes.has(req.method ?? '') && !isQuery(req)) res.once('finish', () => (changed = true));
  });

  let saving: Promise<void> = Promise.resolve();
  let completed = 0;
  const saveOnce = async () => {
    if (!changed || account === undefined) return;
    changed = false;
    // Serialised in this tick, so the text is the account at one instant.
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
