import type { SiteDays } from '../../core/sites/zones';
import type { ActivityHour } from '../../core/store/activity';

/** A period of up to this many days answers its local hours. */
export const HOURLY_DAYS = 2;

export interface LocalHourCount {
  /** Its first instant as the site's clock showed it, with its offset: `2026-11-01T01:00:00-05:00`. */
  hour: string;
  requests: number;
  bots: number;
  self: number;
}

/** Every local clock hour of the days, oldest first, all stores together: 23 or 25 on the days the clocks change. */
export function byHourOf(docs: readonly ActivityHour[], days: readonly string[], zones: Pick<SiteDays, 'zoneOfDay'>): LocalHourCount[] {
  return days.flatMap((day) => {
    const zone = zones.zoneOfDay(day);
    const hours = zone.hours(day).map((hour) => ({ ...hour, requests: 0, bots: 0, self: 0 }));
    for (const doc of docs) {
      if (doc.day !== day) continue;
      const at = Date.parse(doc.hour);
      // A day kept in another zone than its hours are read in puts an hour past its ends in its nearest.
      const hour = hours.find((one) => at < one.end) ?? hours[hours.length - 1]!;
      hour.requests += doc.requests;
      hour.bots += doc.bots;
      hour.self += doc.self;
    }
    return hours.map(({ start, requests, bots, self }) => ({ hour: zone.iso(start), requests, bots, self }));
  });
}
