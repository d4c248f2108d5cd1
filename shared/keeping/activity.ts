import type { ActivityDoc, ActivityHour, VisitorDay } from '../store/activity';
import { addCapped } from './counts';
import type { HourPart, VisitorDayPart } from './plan';

/** A visitor-day document with a message's part of it added (from none yet: the part itself). */
export function withVisitorDay(current: VisitorDay | null, part: VisitorDayPart): VisitorDay {
  const { day, id, store, token, network, first_seen, last_seen, requests, bots, self, paths, sources, page_loads } = part;
  if (current === null) {
    return { id, pk: day, kind: 'visitor-day', store, day, token, network, first_seen, last_seen, requests, bots, self, paths: addCapped({}, paths), sources: addCapped({}, sources), page_loads, applied: {} };
  }
  return {
    ...current,
    first_seen: first_seen < current.first_seen ? first_seen : current.first_seen,
    last_seen: last_seen > current.last_seen ? last_seen : current.last_seen,
    requests: current.requests + requests,
    bots: current.bots + bots,
    self: current.self + self,
    paths: addCapped(current.paths, paths),
    sources: addCapped(current.sources, sources),
    page_loads: current.page_loads + page_loads,
  };
}

/** An hour document with a message's part of it added (from none yet: the part itself). */
export function withHour(current: ActivityHour | null, part: HourPart): ActivityHour {
  const { day, id, store, hour, requests, bots, self, paths } = part;
  if (current === null) return { id, pk: day, kind: 'activity-hour', store, day, hour, requests, bots, self, paths: addCapped({}, paths), applied: {} };
  return { ...current, requests: current.requests + requests, bots: current.bots + bots, self: current.self + self, paths: addCapped(current.paths, paths) };
}

/** A message's part of one activity document, and how to add it. */
export type ActivityPart = { part: VisitorDayPart; add: (current: ActivityDoc | null) => ActivityDoc } | { part: HourPart; add: (current: ActivityDoc | null) => ActivityDoc };

/** The parts as additions to their documents; a document of the other kind under the same id cannot happen (the ids differ by prefix). */
export function additions(visitorDays: readonly VisitorDayPart[], hours: readonly HourPart[]): ActivityPart[] {
  return [
    ...visitorDays.map((part) => ({ part, add: (current: ActivityDoc | null) => withVisitorDay(current as VisitorDay | null, part) })),
    ...hours.map((part) => ({ part, add: (current: ActivityDoc | null) => withHour(current as ActivityHour | null, part) })),
  ];
}
