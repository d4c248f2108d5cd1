import { stronger, type Who } from '../core/identity/who';
import type { First } from '../core/store/first-touch';
import type { Sighting } from './plan';

/** The 7-day ingest limit and today. */
const DAYS = 8;

/**
 * A sighting already kept changes nothing, so a visitor costs one read a day per process, not one per message.
 * It is remembered only once its record is written.
 */
export class KeptSightings {
  private readonly days = new Map<string, Map<string, { kind: Who; first: First | null }>>();

  unkept(hash: string, sightings: readonly Sighting[]): Sighting[] {
    return sightings.filter((seen) => {
      const kept = this.days.get(seen.day)?.get(hash);
      return kept === undefined || stronger(kept.kind, seen.kind) !== kept.kind;
    });
  }

  /** As the record held them when a sighting was last kept here. */
  firstOf(hash: string): First | null {
    for (const day of this.days.values()) {
      const kept = day.get(hash);
      if (kept !== undefined) return kept.first;
    }
    return null;
  }

  remember(hash: string, sightings: readonly Sighting[], first: First | null = null): void {
    for (const seen of sightings) {
      let day = this.days.get(seen.day);
      if (!day) this.days.set(seen.day, (day = new Map<string, { kind: Who; first: First | null }>()));
      const kept = day.get(hash);
      day.set(hash, { kind: kept === undefined ? seen.kind : stronger(kept.kind, seen.kind), first });
    }
    // Every day remembered of this person holds the latest first the record was found with.
    for (const day of this.days.values()) {
      const kept = day.get(hash);
      if (kept !== undefined) kept.first = first;
    }
    const days = [...this.days.keys()].sort();
    for (const old of days.slice(0, Math.max(0, days.length - DAYS))) this.days.delete(old);
  }
}
