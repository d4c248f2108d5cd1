import type { Versioned } from '../core/store/documents';
import { MOVED_TTL_SECONDS, type PersonMoved, type VisitorAt } from '../core/store/person-moves';
import type { VisitorRecord } from '../core/store/visitors';

/** The record under its derived id; its counts changed now, so the fold counts its days again from the records. */
export const movedRecord = (marker: PersonMoved, now: string): VisitorRecord => ({
  ...marker.record,
  id: marker.to,
  derived: true,
  counts_changed_at: now,
});

/**
 * Moves a record to its derived id: first the old one replaced by its marker (If-Match), then the new one created
 * from the marker. Between the two no record counts it, and the new one's counts_changed_at makes the fold count its
 * days again, so no person is counted twice nor anew. False when the record changed since it was read.
 */
export async function moveRecord(
  at: VisitorAt,
  held: Versioned<VisitorRecord>,
  move: { to: string; now: string; slice: number },
): Promise<boolean> {
  const marker: PersonMoved = {
    id: held.doc.id,
    pk: held.doc.pk,
    kind: 'person-moved',
    to: move.to,
    record: held.doc,
    slice: move.slice,
    ttl: MOVED_TTL_SECONDS,
  };
  if ((await at.replace(marker, held.etag)) === 'stale') return false;
  await at.create(movedRecord(marker, move.now));
  return true;
}
