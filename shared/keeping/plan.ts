import type { QueuedHit } from '../hits/message';
import { kindOf, type VisitorKind } from '../identity/kinds';
import { hourId, visitorDayId, type ActivityHour, type VisitorDay } from '../store/activity';

/** One visitor seen on one UTC day, with who the day's requests say they were. */
export interface Sighting {
  day: string;
  kind: VisitorKind;
}

/** What a message's own hits add to an activity document: the document without its partition, kind and applied list. */
type PartOf<Doc> = Omit<Doc, 'pk' | 'kind' | 'applied'>;

/** A message's hits counted into one visitor-day: what it adds to that document. */
export type VisitorDayPart = PartOf<VisitorDay>;

/** A message's hits counted into one store's hour: what it adds to that document. */
export type HourPart = PartOf<ActivityHour>;

/** What one message changes: the sightings of each person hash, and its parts of each activity document. */
export interface Plan {
  sightings: Map<string, Sighting[]>;
  visitorDays: VisitorDayPart[];
  hours: HourPart[];
}

/** The UTC day of an ISO instant the queue carries (always `…Z`). */
export const dayOf = (at: string) => at.slice(0, 10);

const bump = (counts: Record<string, number>, name: string) => {
  counts[name] = (counts[name] ?? 0) + 1;
};

/**
 * The message's hits grouped into what it changes: one sighting per person hash per day, whose kind is the one rule
 * (kindOf) over that day's hits in the message; one part per visitor-day (store, daily token) and per store-hour.
 * Self hits carry no person hash, so they make no sighting, but they are activity.
 */
export function planOf(hits: readonly QueuedHit[]): Plan {
  const days = new Map<string, { requests: number; bots: number; self: boolean }>();
  const visitorDays = new Map<string, VisitorDayPart>();
  const hours = new Map<string, HourPart>();
  for (const hit of hits) {
    const day = dayOf(hit.at);
    if (hit.person !== null) {
      const key = `${hit.person}|${day}`;
      const seen = days.get(key) ?? { requests: 0, bots: 0, self: false };
      days.set(key, { requests: seen.requests + 1, bots: seen.bots + (hit.bot ? 1 : 0), self: seen.self || hit.self });
    }
    const dayId = visitorDayId(hit.store, hit.token);
    const visitorDay =
      visitorDays.get(`${day}|${dayId}`) ??
      ({ day, id: dayId, store: hit.store, token: hit.token, network: hit.network, first_seen: hit.at, last_seen: hit.at, requests: 0, bots: 0, self: 0, paths: {}, sources: {}, page_loads: 0 } satisfies VisitorDayPart);
    visitorDays.set(`${day}|${dayId}`, visitorDay);
    const hour = hit.at.slice(11, 13);
    const hourPart =
      hours.get(`${day}|${hourId(hit.store, hour)}`) ??
      ({ day, id: hourId(hit.store, hour), store: hit.store, hour: `${day}T${hour}:00:00.000Z`, requests: 0, bots: 0, self: 0, paths: {} } satisfies HourPart);
    hours.set(`${day}|${hourPart.id}`, hourPart);
    for (const part of [visitorDay, hourPart]) {
      part.requests += 1;
      if (hit.bot) part.bots += 1;
      if (hit.self) part.self += 1;
      bump(part.paths, hit.path);
    }
    if (hit.at < visitorDay.first_seen) visitorDay.first_seen = hit.at;
    if (hit.at > visitorDay.last_seen) visitorDay.last_seen = hit.at;
    if (hit.source !== null) bump(visitorDay.sources, hit.source);
    if (hit.page_load) visitorDay.page_loads += 1;
  }
  const sightings = new Map<string, Sighting[]>();
  for (const [key, seen] of days) {
    const [hash, day] = key.split('|') as [string, string];
    const list = sightings.get(hash) ?? [];
    list.push({ day, kind: kindOf(seen.self, seen.requests, seen.bots) });
    sightings.set(hash, list.sort((a, b) => (a.day < b.day ? -1 : 1)));
  }
  return { sightings, visitorDays: [...visitorDays.values()], hours: [...hours.values()] };
}
