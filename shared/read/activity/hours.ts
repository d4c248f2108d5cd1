import { daysEnding } from '../../core/days';
import type { SiteDays } from '../../core/sites/zones';
import type { ActivityHour } from '../../core/store/activity';
import type { LocalHour } from '../../core/zone';
import { topEntries } from './token-days';

export const HOURS_SHOWN = 48;

export const HOUR_TOP_PATHS = 5;

export interface StoreHour {
  store: string;
  /** Its first instant as the site's clock showed it, with its offset: `2026-11-01T01:00:00-05:00`. */
  hour: string;
  requests: number;
  bots: number;
  self: number;
  top_paths: Array<{ path: string; requests: number }>;
}

type Days = Pick<SiteDays, 'dayOf' | 'zoneOfDay'>;

/** Hours are at least 30 minutes long, so the last 48 lie within today and the three days before. */
const DAYS_BACK = 3;

/** The last local clock hours up to the one now is in, oldest first, each with its day and its clock. */
export function lastLocalHours(now: Date, days: Days, count = HOURS_SHOWN): Array<LocalHour & { day: string; iso: string }> {
  const today = days.dayOf(now);
  const hours = daysEnding(today, DAYS_BACK + 1).flatMap((day) => {
    const zone = days.zoneOfDay(day);
    return zone.hours(day).map((hour) => ({ ...hour, day, iso: zone.iso(hour.start) }));
  });
  return hours.filter((hour) => hour.start <= now.getTime()).slice(-count);
}

/** Zeros when a store served nothing, so a graph has a point for every hour. */
export function hoursOf(docs: readonly ActivityHour[], now: Date, days: Days): StoreHour[] {
  const hours = lastLocalHours(now, days);
  // A day kept in another zone than its hours are read in puts an hour past its ends in its nearest.
  const hourOf = (doc: ActivityHour) => {
    const ofDay = hours.filter((hour) => hour.day === doc.day);
    const at = Date.parse(doc.hour);
    return (ofDay.find((hour) => at < hour.end) ?? ofDay[ofDay.length - 1])?.iso;
  };
  const kept = new Map<string, ActivityHour[]>();
  for (const doc of docs) {
    const hour = hourOf(doc);
    if (hour !== undefined && Date.parse(doc.hour) >= hours[0]!.start)
      kept.set(`${hour}|${doc.store}`, [...(kept.get(`${hour}|${doc.store}`) ?? []), doc]);
  }
  const stores = [...new Set([...kept.keys()].map((key) => key.slice(key.indexOf('|') + 1)))].sort();
  const sum = (list: readonly ActivityHour[], field: 'requests' | 'bots' | 'self') => list.reduce((total, doc) => total + doc[field], 0);
  return hours.flatMap(({ iso }) =>
    stores.map((store) => {
      const list = kept.get(`${iso}|${store}`) ?? [];
      const paths: Record<string, number> = {};
      for (const doc of list) for (const [path, count] of Object.entries(doc.paths)) paths[path] = (paths[path] ?? 0) + count;
      return {
        store,
        hour: iso,
        requests: sum(list, 'requests'),
        bots: sum(list, 'bots'),
        self: sum(list, 'self'),
        top_paths: topEntries(paths, HOUR_TOP_PATHS).map(({ name, count }) => ({ path: name, requests: count })),
      };
    }),
  );
}
