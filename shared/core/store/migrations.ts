import { utcDay } from '../identity/tokens';
import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

export const migrationId = (name: string) => `migration:${name}`;

/** A named migration's progress, written by the timer after each slice (If-Match), so a run that dies resumes where it was. */
export interface MigrationDoc {
  id: string;
  pk: typeof VISITORS_PK;
  kind: 'migration';
  name: string;
  begun_at: string;
  /** The migration's own continuation, after which the next slice starts; null before the first slice. */
  position: string | null;
  /** Slices done; the next slice is number `slices + 1`. */
  slices: number;
  /** Null while slices are left. */
  done_at: string | null;
}

export type Migrations = Conditional<MigrationDoc, [name: string]>;

/** `from`: the UTC day it was done, from which its new form holds for everything written after it. */
export type MigrationStatus = { done: false; begun: boolean } | { done: true; from: string };

/** One point read. */
export async function migrationStatus(migrations: Pick<Migrations, 'read'>, name: string): Promise<MigrationStatus> {
  const found = await migrations.read(name);
  if (found === null) return { done: false, begun: false };
  if (found.doc.done_at === null) return { done: false, begun: true };
  return { done: true, from: utcDay(new Date(found.doc.done_at)) };
}
