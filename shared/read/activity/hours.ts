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
  // A local hour of a half-hour zone is kept from its own start: it counts in the UTC hour it starts in.
  const utcHour = (doc: ActivityHour) => `${doc.hour.slice(0, 13)}:00:00.000Z`;
  const shown = docs.filter((doc) => hours.includes(utcHour(doc)));
  const stores = [...new Set(shown.map((doc) => doc.store))].sort();
  const kept = new Map<string, ActivityHour[]>();
  for (const doc of shown) kept.set(`${utcHour(doc)}|${doc.store}`, [...(kept.get(`${utcHour(doc)}|${doc.store}`) ?? []), doc]);
  const sum = (list: readonly ActivityHour[], field: 'requests' | 'bots' | 'self') => list.reduce((total, doc) => total + doc[field], 0);
  return hours.flatMap((hour) =>
    stores.map((store) => {
      const list = kept.get(`${hour}|${store}`) ?? [];
      const paths: Record<string, number> = {};
      for (const doc of list) for (const [path, count] of Object.entries(doc.paths)) paths[path] = (paths[path] ?? 0) + count;
      return {
        store,
        hour,
        requests: sum(list, 'requests'),
        bots: sum(list, 'bots'),
        self: sum(list, 'self'),
        top_paths: topEntries(paths, HOUR_TOP_PATHS).map(({ name, count }) => ({ path: name, requests: count })),
      };
    }),
  );
}
