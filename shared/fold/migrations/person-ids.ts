import type { Clock } from '../../core/ports/clock';
import { PERSON_IDS_MIGRATION, type PersonMoves } from '../../core/store/person-moves';
import { movedRecord, moveRecord } from '../../keep/person-move';
import type { Migration } from './runner';

/**
 * Moves every visitor record from its HMAC value to its derived person id, a slice at a time (docs/design.md, Identity).
 * A record a keep changed since it was read stays for a later slice; it is done once a slice finds none left.
 */
export function personIdsMigration(moves: PersonMoves, derive: (old: string) => Promise<string>, clock: Clock): Migration {
  return {
    name: PERSON_IDS_MIGRATION,
    async slice({ number, limit }) {
      const now = clock.now().toISOString();
      // A run of this slice that died between a marker and its new record finishes it; 409 means it was.
      for (const marker of await moves.movedBy(number)) await moves.at.create(movedRecord(marker, now));
      const records = await moves.unmoved(limit);
      for (const held of records) await moveRecord(moves.at, held, { to: await derive(held.doc.id), now, slice: number });
      return records.length === 0 ? null : String(number);
    },
  };
}
