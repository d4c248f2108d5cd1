import { daysOrSet, zoneOfAnswer, type ReadZone } from '../core/sites/zones';
import { addDays } from '../core/days';
import { costOf, readActivity, type ActivityStore } from './activity/availability';
import { topEntries } from './activity/token-days';
import { ok, type Result } from '../core/result';
import { whoOf } from '../core/identity/who';
import type { Clock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import type { Store } from '../core/store';
import type { VisitorDayPart } from '../core/store/facts';
import { z } from 'zod';
import type { NowAnswer } from '../contract/activity';

/** How many minutes `now` looks back over, the current one included. */
export const NOW_MINUTES = 30;

export const NOW_TOP_PATHS = 10;

const MINUTE_MS = 60_000;

export interface NowDeps extends ReadZone {
  store: ActivityStore & Pick<Store, 'recent'>;
  clock: Clock;
  logger: Logger;
}

/** Distinct daily tokens of people. */
export interface MinuteOfPeople {
  minute: string;
  people: number;
}

export interface NowFigures {
  people_last_30_minutes: number;
  by_minute: MinuteOfPeople[];
  top_paths: Array<{ path: string; requests: number }>;
}

/** Oldest first, as ISO instants. */
export function lastMinutes(now: Date, count = NOW_MINUTES): string[] {
  const minute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  return Array.from({ length: count }, (_, i) => new Date(minute - (count - 1 - i) * MINUTE_MS).toISOString());
}

/**
 * A fact kept before minutes were has its parts at their last minute. The minutes are the UTC clock's, kept on the
 * site's local day, so each is the UTC date before, of or after that day: at most one of them is in the window.
 */
function minutePaths(part: VisitorDayPart, shown: ReadonlySet<string>): Array<{ minute: string; path: string; requests: number }> {
  if (part.minute_paths === undefined)
    return Object.entries(part.paths).map(([path, requests]) => ({ minute: `${part.last_seen.slice(0, 16)}:00.000Z`, path, requests }));
  return Object.entries(part.minute_paths).flatMap(([key, requests]) => {
    const minute = [-1, 0, 1].map((offset) => `${addDays(part.day, offset)}T${key.slice(0, 5)}:00.000Z`).find((one) => shown.has(one));
    return minute === undefined ? [] : [{ minute, path: key.slice(5), requests }];
  });
}

/** A person whose day turned at the site's midnight in the window has two tokens, as every daily figure does. */
export function nowOf(parts: readonly VisitorDayPart[], now: Date): NowFigures {
  const minutes = lastMinutes(now);
  const shown = new Set(minutes);
  const seen = new Map<string, { requests: number; bots: number; self: number; minutes: Set<string>; paths: Record<string, number> }>();
  for (const part of parts) {
    const inWindow = minutePaths(part, shown).filter((entry) => shown.has(entry.minute));
    if (inWindow.length === 0) continue;
    const token = seen.get(part.token) ?? { requests: 0, bots: 0, self: 0, minutes: new Set<string>(), paths: {} };
    seen.set(part.token, token);
    token.requests += part.requests;
    token.bots += part.bots;
    token.self += part.self;
    for (const entry of inWindow) {
      token.minutes.add(entry.minute);
      token.paths[entry.path] = (token.paths[entry.path] ?? 0) + entry.requests;
    }
  }
  const people = [...seen.values()].filter((token) => whoOf(token.self > 0, token.requests, token.bots) === 'people');
  const paths: Record<string, number> = {};
  for (const token of people) for (const [path, n] of Object.entries(token.paths)) paths[path] = (paths[path] ?? 0) + n;
  return {
    people_last_30_minutes: people.length,
    by_minute: minutes.map((minute) => ({ minute, people: people.filter((token) => token.minutes.has(minute)).length })),
    top_paths: topEntries(paths, NOW_TOP_PATHS).map(({ name, count }) => ({ path: name, requests: count })),
  };
}

/** No parameters but a cache-buster. */
export const nowQuerySchema = z.object({});

/** Read from the facts, so it is as fresh as the queue. */
export async function nowCard(deps: NowDeps): Promise<Result<NowAnswer>> {
  const now = deps.clock.now();
  const since = new Date(lastMinutes(now)[0]!);
  const zones = await daysOrSet(deps);
  const { value, availability } = await readActivity(deps.store, deps.logger, async () => {
    // The facts are kept by local day.
    const days = [...new Set([zones.dayOf(since), zones.dayOf(now)])];
    return (await Promise.all(days.map((day) => deps.store.recent.partsSince(day, since)))).flat();
  });
  const figures = value && nowOf(value, now);
  return ok({
    from: since.toISOString(),
    to: now.toISOString(),
    people_last_30_minutes: figures?.people_last_30_minutes ?? null,
    by_minute: figures?.by_minute ?? null,
    top_paths: figures?.top_paths ?? null,
    ...zoneOfAnswer(zones),
    availability,
    cost: costOf(deps.store),
  });
}
