import { stronger, type VisitorKind } from '../identity/kinds';
import type { Sighting } from './plan';

/** How many of the latest days are remembered: the ingest limit (7 days by default) and today. */
const DAYS = 8;

/**
 * The sightings this process has kept, by day: one already kept with the same kind (or a weaker one) changes nothing
 * in the record, so it is not read again, and a visitor costs one read a day per process rather than one per message.
 * A sighting is remembered only once the record holding it is written (or was found holding it).
 */
export class KeptSightings {
  private readonly days = new Map<string, Map<string, VisitorKind>>();

  /** The sightings that could still change the record. */
  unkept(hash: string, sightings: readonly Sighting[]): Sighting[] {
    return sightings.filter((seen) => {
      const kept = this.days.get(seen.day)?.get(hash);
      return kept === undefined || stronger(kept, seen.kind) !== kept;
    });
  }

  remember(hash: string, sightings: readonly Sighting[]): void {
    for (const seen of sightings) {
      let day = this.days.get(seen.day);
      if (!day) this.days.set(seen.day, (day = new Map<string, VisitorKind>()));
      const kept = day.get(hash);
      day.set(hash, kept === undefined ? seen.kind : stronger(kept, seen.kind));
    }
    const days = [...this.days.keys()].sort();
    for (const old of days.slice(0, Math.max(0, days.length - DAYS))) this.days.delete(old);
  }
}
