import { utcDay } from './identity/tokens';
import { derivePersonId, type PersonIds } from './identity/person-id';
import { addDays } from './days';
import type { Clock, Scheduler } from './ports/clock';

/** A day's visitors a process remembers; past it the oldest is forgotten and derived again if seen again. */
export const PERSON_IDS_REMEMBERED = 50_000;

/** Remembers each derivation for the UTC day it was made on only, forgetting them all when the day ends. */
export function personIds(cost: number, time: Clock & Scheduler, remembered = PERSON_IDS_REMEMBERED): PersonIds {
  let day: string | null = null;
  const known = new Map<string, Promise<string>>();
  const forget = () => {
    known.clear();
    day = null;
  };
  return {
    of(hmacValue) {
      const now = time.now();
      if (day !== utcDay(now)) {
        known.clear();
        day = utcDay(now);
        // No mapping outlives its day in memory, even when no hit comes after midnight.
        time.after(Date.parse(`${addDays(day, 1)}T00:00:00.000Z`) - now.getTime(), forget);
      }
      const found = known.get(hmacValue);
      if (found !== undefined) return found;
      const derived = derivePersonId(hmacValue, cost);
      // A failed derivation is not remembered, so the next hit tries again.
      derived.catch(() => known.get(hmacValue) === derived && known.delete(hmacValue));
      if (known.size >= remembered) known.delete(known.keys().next().value!);
      known.set(hmacValue, derived);
      return derived;
    },
  };
}
