import { costOf, readActivity, type ActivityStore } from './activity/availability';
import { topEntries } from './activity/token-days';
import { ok, type Result } from '../core/result';
import { kindOf } from '../core/identity/kinds';
import { utcDay } from '../core/identity/tokens';
import type { Clock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import type { Store } from '../core/store';
import type { VisitorDayPart } from '../core/store/facts';
import { z } from 'zod';

/** How many minutes `now` looks back over, the current one included. */
export const NOW_MINUTES = 30;

/** How many paths `top_paths` names. */
export const NOW_TOP_PATHS = 10;

const MINUTE_MS = 60_000;

/** What GET /api/admin/now reads: the store's recent facts and the clock. */
export interface NowDeps {
  store: ActivityStore & Pick<Store, 'recent'>;
  clock: Clock;
  logger: Logger;
}

/** People in one minute of the last 30: the distinct daily tokens of people seen in it. */
export interface MinuteOfPeople {
  minute: string;
  people: number;
}

/** Who is on the site now, from the last 30 minutes' facts. */
export interface NowFigures {
  people_last_30_minutes: number;
  by_minute: MinuteOfPeople[];
  top_paths: Array<{ path: string; requests: number }>;
}

/** The starts of the NOW_MINUTES minutes ending with the minute of `now`, oldest first, as ISO instants. */
export function lastMinutes(now: Date, count = NOW_MINUTES): string[] {
  const minute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  return Array.from({ length: count }, (_, i) => new Date(minute - (count - 1 - i) * MINUTE_MS).toISOString());
}

/** A part's requests by minute (ISO instant) and path; a fact kept before minutes were has its parts at their last minute. */
function minutePaths(part: VisitorDayPart): Array<{ minute: string; path: string; requests: number }> {
  const byMinute =
    part.minute_paths ?? Object.fromEntries(Object.entries(part.paths).map(([path, n]) => [`${part.last_seen.slice(11, 16)}${path}`, n]));
  return Object.entries(byMinute).map(([key, requests]) => ({
    minute: `${part.day}T${key.slice(0, 5)}:00.000Z`,
    path: key.slice(5),
    requests,
  }));
}

/**
 * The last 30 minutes from the visitor-day parts of recent facts: a daily token is a person in them when its parts
 * that reach into them read as one by the one rule (kindOf: no self request, not every request a bot); each minute
 * counts the distinct people's tokens seen in it, and the total the distinct ones across all 30. A person whose day
 * turned at midnight UTC in the window has two tokens, as every daily figure does.
 */
export function nowOf(parts: readonly VisitorDayPart[], now: Date): NowFigures {
  const minutes = lastMinutes(now);
  const shown = new Set(minutes);
  const seen = new Map<string, { requests: number; bots: number; self: number; minutes: Set<string>; paths: Record<string, number> }>();
  for (const part of parts) {
    const inWindow = minutePaths(part).filter((entry) => shown.has(entry.minute));
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
  const people = [...seen.values()].filter((token) => kindOf(token.self > 0, token.requests, token.bots) === 'people');
  const paths: Record<string, number> = {};
  for (const token of people) for (const [path, n] of Object.entries(token.paths)) paths[path] = (paths[path] ?? 0) + n;
  return {
    people_last_30_minutes: people.length,
    by_minute: minutes.map((minute) => ({ minute, people: people.filter((token) => token.minutes.has(minute)).length })),
    top_paths: topEntries(paths, NOW_TOP_PATHS).map(({ name, count }) => ({ path: name, requests: count })),
  };
}

/** GET /api/admin/now takes no parameters but a cache-buster. */
export const nowQuerySchema = z.object({});

/**
 * GET /api/admin/now: people in the last 30 minutes, by minute, and their top paths, read from the facts keep-hits
 * wrote (one query in today's partition, and one in yesterday's in the first half hour of a UTC day), so it is as
 * fresh as the queue. A store that cannot answer gives 200 with null figures and `available: false`.
 */
export async function nowCard(deps: NowDeps): Promise<Result<object>> {
  const now = deps.clock.now();
  const since = new Date(lastMinutes(now)[0]!);
  const days = [...new Set([utcDay(since), utcDay(now)])];
  const { value, availability } = await readActivity(deps.store, deps.logger, async () =>
    (await Promise.all(days.map((day) => deps.store.recent.partsSince(day, since)))).flat(),
  );
  const figures = value && nowOf(value, now);
  return ok({
    from: since.toISOString(),
    to: now.toISOString(),
    people_last_30_minutes: figures?.people_last_30_minutes ?? null,
    by_minute: figures?.by_minute ?? null,
    top_paths: figures?.top_paths ?? null,
    availability,
    cost: costOf(deps.store),
  });
}
