import { addCapped } from '../core/counts';
import type { BotsByReason } from '../core/identity/who';
import type { ActivityHour, VisitorDay } from '../core/store/activity';
import type { HourPart, VisitorDayPart } from '../core/store/facts';
import { withAudience, withFirstTimes } from './audience';

/** Absent when neither has any, as on documents and facts from before reasons. */
function addReasons(a: BotsByReason | undefined, b: BotsByReason | undefined): BotsByReason | undefined {
  if (a === undefined && b === undefined) return undefined;
  const sum: BotsByReason = { ...a };
  for (const [reason, count] of Object.entries(b ?? {}) as Array<[keyof BotsByReason, number]>) sum[reason] = (sum[reason] ?? 0) + count;
  return sum;
}

/** A part of engagements alone joins a visitor-day kept already: it adds engaged time, never a request. */
export const withEngagement = (current: VisitorDay, part: VisitorDayPart, watermark: number): VisitorDay => ({
  ...current,
  ...withAudience(current, part),
  folded_to: watermark,
});

/** The visitor-day with its first times taken from what it keeps. */
const firstTimed = (current: VisitorDay | null, part: VisitorDayPart, merged: VisitorDay): VisitorDay => {
  const { first_at: _dropped, ...rest } = merged;
  return { ...rest, ...withFirstTimes(current, part, merged) };
};

/** From none yet, the part itself; marked as holding facts to `watermark`. */
export function withVisitorDay(current: VisitorDay | null, part: VisitorDayPart, watermark: number): VisitorDay {
  const { day, id, store, token, network, first_seen, last_seen, requests, bots, bots_by, self, paths, sources, page_loads } = part;
  if (current === null) {
    const reasons = bots_by === undefined ? {} : { bots_by: { ...bots_by } };
    return firstTimed(null, part, {
      id,
      pk: day,
      kind: 'visitor-day',
      store,
      day,
      token,
      network,
      first_seen,
      last_seen,
      requests,
      bots,
      ...reasons,
      self,
      paths: addCapped({}, paths),
      sources: addCapped({}, sources),
      page_loads,
      visit: false,
      ...withAudience(null, part),
      folded_to: watermark,
    });
  }
  const reasons = addReasons(current.bots_by, bots_by);
  return firstTimed(current, part, {
    ...current,
    first_seen: first_seen < current.first_seen ? first_seen : current.first_seen,
    last_seen: last_seen > current.last_seen ? last_seen : current.last_seen,
    requests: current.requests + requests,
    bots: current.bots + bots,
    ...(reasons === undefined ? {} : { bots_by: reasons }),
    self: current.self + self,
    paths: addCapped(current.paths, paths),
    sources: addCapped(current.sources, sources),
    page_loads: current.page_loads + page_loads,
    ...withAudience(current, part),
    folded_to: watermark,
  });
}

/** From none yet, the part itself; marked as holding facts to `watermark`. */
export function withHour(current: ActivityHour | null, part: HourPart, watermark: number): ActivityHour {
  const { day, id, store, hour, requests, bots, self, paths } = part;
  if (current === null)
    return {
      id,
      pk: day,
      kind: 'activity-hour',
      store,
      day,
      hour,
      requests,
      bots,
      self,
      paths: addCapped({}, paths),
      folded_to: watermark,
    };
  return {
    ...current,
    requests: current.requests + requests,
    bots: current.bots + bots,
    self: current.self + self,
    paths: addCapped(current.paths, paths),
    folded_to: watermark,
  };
}
