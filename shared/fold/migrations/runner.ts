import { FoldRaced, conditionalWriteOnce } from '../../core/store/conditional-write';
import type { Versioned } from '../../core/store/documents';
import { migrationId, type MigrationDoc, type Migrations } from '../../core/store/migrations';
import { VISITORS_PK } from '../../core/store/visitors';
import { tried } from '../tries';

/** What one slice of a migration is given. */
export interface MigrationSlice {
  /** Where it starts: the continuation the slice before it answered; null for the first. */
  position: string | null;
  /** 1 for the first slice; a write that adds records the number it applied, so a slice run again adds nothing twice. */
  number: number;
  /** At most this many items. */
  limit: number;
  /** The store's settled watermark the run reads up to: a write after it may be part of one still under way. */
  bound?: number;
}

/**
 * A named change of kept documents, run by the timer in slices (see docs/keeping-and-counting.md, Migrations).
 * A slice may run again from the same position (a run that died before its progress was written, or two runs at once),
 * so each of its writes must be idempotent: a create that answers 409 is done, a replace names the version it read.
 */
export interface Migration {
  /** Never renamed: its progress is kept under it. */
  name: string;
  /**
   * Moves the next items after `position`; answers the position after them, or null once nothing is left. Answering
   * `position` itself says nothing may move yet: the run leaves this migration, and those after it, for a later run.
   */
  slice(slice: MigrationSlice): Promise<string | null>;
}

export interface MigrationRun {
  now: Date;
  /** Items a slice. */
  limit: number;
  /** Whether the run may take another slice. */
  more(): Promise<boolean>;
  /** The fold's settled watermark; absent outside the fold. */
  bound?: number;
}

const begun = (name: string, now: Date): MigrationDoc => ({
  id: migrationId(name),
  pk: VISITORS_PK,
  kind: 'migration',
  name,
  begun_at: now.toISOString(),
  position: null,
  slices: 0,
  done_at: null,
});

/** The progress as the store holds it; a lost race (another run moved it) throws FoldRaced, ending the part. */
async function advanced(store: Migrations, held: Versioned<MigrationDoc> | null, next: MigrationDoc): Promise<Versioned<MigrationDoc>> {
  await conditionalWriteOnce(store, { before: held?.doc ?? null, etag: held?.etag ?? null, after: next }, `migration ${next.name}`);
  // Create and replace answer no etag, so it is read back.
  const read = await tried(() => store.read(next.name));
  if (read === null || read.doc.slices !== next.slices) throw new FoldRaced(`migration ${next.name}`);
  return read;
}

/** Slices until done or the run ends; true when done. */
async function runOne(store: Migrations, migration: Migration, run: MigrationRun): Promise<boolean> {
  let held = await tried(() => store.read(migration.name));
  if (held?.doc.done_at != null) return true;
  if (held === null) held = await advanced(store, null, begun(migration.name, run.now));
  while (await run.more()) {
    const { doc } = held;
    const given = { position: doc.position, number: doc.slices + 1, limit: run.limit };
    const position = await migration.slice(run.bound === undefined ? given : { ...given, bound: run.bound });
    if (position !== null && position === doc.position) return false;
    const done = position === null ? { done_at: run.now.toISOString() } : {};
    held = await advanced(store, held, { ...doc, position, slices: doc.slices + 1, ...done });
    if (held.doc.done_at !== null) return true;
  }
  return false;
}

/** In order: each begins once the one before it is done. True when every one is done. Under the fold lease. */
export async function runMigrations(store: Migrations, migrations: readonly Migration[], run: MigrationRun): Promise<boolean> {
  for (const migration of migrations) if (!(await runOne(store, migration, run))) return false;
  return true;
}
