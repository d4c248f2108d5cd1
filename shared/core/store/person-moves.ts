import { addDays } from '../days';
import { utcDay } from '../identity/tokens';
import type { Conditional, Versioned } from './documents';
import type { Migrations } from './migrations';
import { VISITORS_PK, type VisitorRecord } from './visitors';

export const PERSON_IDS_MIGRATION = 'person-ids';

/** A week: past it no keep can still be mid-move, and the old, reversible id is gone from the store. */
export const MOVED_TTL_SECONDS = 604_800;

/**
 * What a visitor record becomes when the person-ids migration moves it to its derived id (replaced with If-Match),
 * so a keep of the old id finds where it went; it is not a visitor record, so no count reads it.
 */
export interface PersonMoved {
  /** The old id (the person's HMAC value). */
  id: string;
  pk: typeof VISITORS_PK;
  kind: 'person-moved';
  /** The derived id its record lives under now. */
  to: string;
  /** As it was when moved: what the new record is created from, even by a keep that finds it before the new record. */
  record: VisitorRecord;
  /** The migration's slice that moved it, 0 when a keep did; a slice run again finishes its own. */
  slice: number;
  ttl: typeof MOVED_TTL_SECONDS;
}

export type VisitorAt = Conditional<VisitorRecord | PersonMoved, [id: string]>;

export interface PersonMoves {
  /** The document at a visitor's id: its record, or the marker it was moved by. */
  at: VisitorAt;
  /** Records not moved yet (neither moved nor created under a derived id), at most `limit`. */
  unmoved(limit: number): Promise<Array<Versioned<VisitorRecord>>>;
  /** The markers a slice wrote. */
  movedBy(slice: number): Promise<PersonMoved[]>;
}

export const isMoved = (doc: VisitorRecord | PersonMoved | null): doc is PersonMoved => doc?.kind === 'person-moved';

/** The first day whose facts name every person by the derived id: the day after the migration began, whose facts hold both; null before. */
export async function identityFrom(migrations: Pick<Migrations, 'read'>): Promise<string | null> {
  const found = await migrations.read(PERSON_IDS_MIGRATION);
  return found === null ? null : addDays(utcDay(new Date(found.doc.begun_at)), 1);
}
