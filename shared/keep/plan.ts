import type { Zone } from '../core/zone';
import type { QueuedHit } from '../core/message';
import { whoOf, type Who } from '../core/identity/who';
import { hourId, visitorDayId } from '../core/store/activity';
import type { GoalAction, HourPart, SubjectScan, VisitorDayPart } from '../core/store/facts';
import { addAudience } from './audience';
import { firstTimeKey } from '../core/funnel';
import type { First, FirstTouch } from '../core/store/first-touch';
import { addFirst, touchOf } from './first';

export interface Sighting {
  day: string;
  kind: Who;
  /** Where the day's first people's request in the message came from. */
  touch?: FirstTouch;
}

export interface DayPlan {
  visitorDays: VisitorDayPart[];
  hours: HourPart[];
  scans: SubjectScan[];
  actions: GoalAction[];
}

export interface Plan {
  days: Map<string, DayPlan>;
}

/** The site's local day, or on a message queued before zones `at`'s UTC day (the queue's instants always end in `Z`). */
export const dayOf = (hit: Pick<QueuedHit, 'at' | 'day'>) => hit.day ?? hit.at.slice(0, 10);

/** The local clock hour a hit falls in: its key within the day and its first instant, ISO 8601 UTC. */
export type HourOf = (at: string) => { key: string; start: string };

/** A site whose days are UTC. */
export const utcHourOf: HourOf = (at) => ({ key: at.slice(11, 13), start: `${at.slice(0, 13)}:00:00.000Z` });

/** In a zone: its local hours, 23 or 25 on the days the clocks change. */
export const zoneHourOf =
  (zoneAt: (at: number) => Zone): HourOf =>
  (at) => {
    const instant = Date.parse(at);
    const hour = zoneAt(instant).hourOf(instant);
    return { key: hour.key, start: new Date(hour.start).toISOString() };
  };

const bump = (counts: Record<string, number>, name: string, by = 1) => {
  counts[name] = (counts[name] ?? 0) + by;
};

const newVisitorDay = (day: string, hit: QueuedHit): VisitorDayPart => ({
  day,
  id: visitorDayId(hit.served_by, hit.token),
  store: hit.served_by,
  token: hit.token,
  network: hit.network,
  first_seen: hit.at,
  last_seen: hit.at,
  requests: 0,
  bots: 0,
  bots_by: {},
  self: 0,
  paths: {},
  sources: {},
  page_loads: 0,
});

const newHour = (day: string, hit: QueuedHit, hourOf: HourOf): HourPart => {
  const hour = hourOf(hit.at);
  return {
    day,
    id: hourId(hit.served_by, hour.key),
    store: hit.served_by,
    hour: hour.start,
    requests: 0,
    bots: 0,
    self: 0,
    paths: {},
  };
};

function addEvent(part: VisitorDayPart, hit: QueuedHit): void {
  if (hit.event === undefined) return;
  bump((part.events ??= {}), hit.event);
  for (const [key, value] of Object.entries(hit.props ?? {})) bump((part.event_props ??= {}), `${hit.event}|${key}|${value}`);
}

/** So a funnel sees which of its steps came first. */
function addFirstTime(part: VisitorDayPart, hit: QueuedHit): void {
  const key = firstTimeKey(hit);
  const first = (part.first_at ??= {});
  if (first[key] === undefined || hit.at < first[key]) first[key] = hit.at;
}

/** A bot's engagement is left out like its requests. */
const isEngagement = (hit: QueuedHit) => hit.engagement !== undefined && !hit.bot;

/** Not a request: only the visit's and its page's engaged time and the page's deepest scroll. */
function addEngagement(part: VisitorDayPart, path: string, engagement: { ms: number; scroll: number }): void {
  part.engaged_ms = (part.engaged_ms ?? 0) + engagement.ms;
  bump((part.page_ms ??= {}), path, engagement.ms);
  const scrolls = (part.page_scroll ??= {});
  scrolls[path] = Math.max(scrolls[path] ?? 0, engagement.scroll);
}

/** Only people's: a person hash, not a bot, not the site's own. */
function addAction(actions: Map<string, GoalAction>, hit: QueuedHit, first: First | undefined): void {
  if (hit.person === null || hit.bot || hit.self) return;
  const action = actions.get(hit.person) ?? {
    person: hit.person,
    at: hit.at,
    ...(dayOf(hit) === hit.at.slice(0, 10) ? {} : { day: dayOf(hit) }),
    events: [],
    paths: [],
    ...withFirst(first),
    ...(hit.person_derived === true ? { derived: true as const } : {}),
  };
  if (hit.at < action.at) action.at = hit.at;
  if (hit.event !== undefined && !action.events.includes(hit.event)) action.events.push(hit.event);
  if (hit.event === undefined && !action.paths.includes(hit.path)) action.paths.push(hit.path);
  actions.set(hit.person, action);
}

const withFirst = (first: First | undefined): Pick<GoalAction, 'first' | 'touch'> =>
  first === undefined ? {} : { first: first.day, ...(first.touch === null ? {} : { touch: first.touch }) };

/** Self and hashless hits carry no identity. */
function scanOf(hit: QueuedHit & { subject: string }): SubjectScan {
  const who = hit.person === null ? 'self' : whoOf(hit.self, 1, hit.bot ? 1 : 0);
  const derived = who === 'people' && hit.person_derived === true ? { derived: true as const } : {};
  return { subject: hit.subject, at: hit.at, who, identity: who === 'people' ? hit.person : null, ...derived };
}

/** One per person hash per day. */
export function sightingsOf(hits: readonly QueuedHit[]): Map<string, Sighting[]> {
  const days = new Map<string, { hash: string; day: string; requests: number; bots: number; self: boolean; hits: QueuedHit[] }>();
  for (const hit of hits) {
    if (hit.person === null || hit.engagement !== undefined) continue;
    const key = `${hit.person}|${dayOf(hit)}`;
    const seen = days.get(key) ?? { hash: hit.person, day: dayOf(hit), requests: 0, bots: 0, self: false, hits: [] };
    seen.hits.push(hit);
    days.set(key, { ...seen, requests: seen.requests + 1, bots: seen.bots + (hit.bot ? 1 : 0), self: seen.self || hit.self });
  }
  const sightings = new Map<string, Sighting[]>();
  for (const seen of days.values()) {
    const list = sightings.get(seen.hash) ?? [];
    const touch = touchOf(seen.hits);
    list.push({ day: seen.day, kind: whoOf(seen.self, seen.requests, seen.bots), ...(touch === null ? {} : { touch }) });
    sightings.set(
      seen.hash,
      list.sort((a, b) => (a.day < b.day ? -1 : 1)),
    );
  }
  return sightings;
}

/** `firsts` watermarks each visitor-day's new people and each action's first touch. */
export function planOf(hits: readonly QueuedHit[], firsts: ReadonlyMap<string, First | null> = new Map(), hourOf = utcHourOf): Plan {
  const days = new Map<
    string,
    { visitorDays: Map<string, VisitorDayPart>; hours: Map<string, HourPart>; scans: SubjectScan[]; actions: Map<string, GoalAction> }
  >();
  // Engagements last, so a part's first and last request are its requests' alone.
  for (const hit of [...hits.filter((one) => one.engagement === undefined), ...hits.filter(isEngagement)]) {
    const day = dayOf(hit);
    const parts = days.get(day) ?? {
      visitorDays: new Map<string, VisitorDayPart>(),
      hours: new Map<string, HourPart>(),
      scans: [] as SubjectScan[],
      actions: new Map<string, GoalAction>(),
    };
    days.set(day, parts);
    const visitorDay = parts.visitorDays.get(visitorDayId(hit.served_by, hit.token)) ?? newVisitorDay(day, hit);
    parts.visitorDays.set(visitorDay.id, visitorDay);
    if (hit.engagement !== undefined) {
      addEngagement(visitorDay, hit.path, hit.engagement);
      continue;
    }
    const made = newHour(day, hit, hourOf);
    const hour = parts.hours.get(made.id) ?? made;
    parts.hours.set(hour.id, hour);
    for (const part of [visitorDay, hour]) {
      part.requests += 1;
      if (hit.bot) part.bots += 1;
      if (hit.self) part.self += 1;
      // An event is a request of its visitor-day, not a request of its page.
      if (hit.event === undefined) bump(part.paths, hit.path);
    }
    addFirstTime(visitorDay, hit);
    if (hit.at < visitorDay.first_seen) visitorDay.first_seen = hit.at;
    if (hit.at > visitorDay.last_seen) visitorDay.last_seen = hit.at;
    if (hit.bot && hit.reason) bump(visitorDay.bots_by!, hit.reason);
    if (hit.source !== null) bump(visitorDay.sources, hit.source);
    if (hit.page_load) visitorDay.page_loads += 1;
    addAudience(visitorDay, hit);
    addEvent(visitorDay, hit);
    const first = hit.person === null ? undefined : (firsts.get(hit.person) ?? undefined);
    addFirst(visitorDay, hit, first);
    addAction(parts.actions, hit, first);
    if (hit.subject !== null) parts.scans.push(scanOf({ ...hit, subject: hit.subject }));
  }
  const byDay = new Map<string, DayPlan>();
  for (const [day, parts] of days)
    byDay.set(day, {
      visitorDays: [...parts.visitorDays.values()],
      hours: [...parts.hours.values()],
      scans: parts.scans,
      actions: [...parts.actions.values()],
    });
  return { days: byDay };
}
