import type { ActivityHour } from '../../core/store/activity';
import { lastHours } from './days';
import { topEntries } from './token-days';

export const HOURS_SHOWN = 48;

export const HOUR_TOP_PATHS = 5;

export interface StoreHour {
  store: string;
  /** The start of the hour, ISO 8601 UTC. */
  hour: string;
  requests: number;
  bots: number;
  self: number;
  top_paths: Array<{ path: string; requests: number }>;
}

/** Zeros when a store served nothing, so a graph has a point for every hour. */
export function hoursOf(docs: readonly ActivityHour[], now: Date): StoreHour[] {
  const hours = lastHours(now, HOURS_SHOWN);
  const shown = docs.filter((doc) => hours.includes(doc.hour));
  const stores = [...new Set(shown.map((doc) => doc.store))].sort();
  const kept = new Map(shown.map((doc) => [`${doc.hour}|${doc.store}`, doc]));
  return hours.flatMap((hour) =>
    stores.map((store) => {
      const doc = kept.get(`${hour}|${store}`);
      return {
        store,
        hour,
        requests: doc?.requests ?? 0,
        bots: doc?.bots ?? 0,
        self: doc?.self ?? 0,
        top_paths: topEntries(doc?.paths ?? {}, HOUR_TOP_PATHS).map(({ name, count }) => ({ path: name, requests: count })),
      };
    }),
  );
}
