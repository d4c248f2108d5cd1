import { stronger, type VisitorKind } from '../core/identity/kinds';
import type { First } from '../core/store/first-touch';
import type { Sighting } from './plan';

/** How many of the latest days are remembered: the ingest limit (7 days by default) and today. */
const DAYS = 8;

/**
 * The sightings this process has kept, by day: one already kept with the same kind (or a weaker one) changes nothing
 * in the record, so it is not read again, and a visitor costs one read a day per process rather than one per message.
 * A sighting is remembered only once the record holding it is written (or was found holding it), with the person's
 * first day and touch as that record held them.
 */
export class KeptSightings {
  private readonly days = new Map<string, Map<string, { kind: VisitorKind; first: First | null }>>();

  /** The sightings that could still change the record. */
  unkept(hash: string, sightings: readonly Sighting[]): Sighting[] {
    return sightings.filter((seen) => {
      const kept = this.days.get(seen.day)?.get(hash);
      return kept === undefined || stronger(kept.kind, seen.kind) !== kept.kind;
    });
  }

  /** The person's first day and touch as the record held them when a sighting of theirs was last kept here. */
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
      if (!day) this.days.set(seen.day, (day = new Map<string, { kind: VisitorKind; first: First | null }>()));
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
