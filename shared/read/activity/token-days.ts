import { whoOf, leftOutReason, stronger, type BotReason, type BotsByReason, type Who } from '../../core/identity/who';
import type { VisitorDay } from '../../core/store/activity';
import { visitorDayKey } from '../counting/visits';

/** One visitor-day however many stores served it, keyed as the visits are. */
export interface TokenDay {
  day: string;
  token: string;
  kind: Who;
  /** Why a scanner's visitor-day was left out (leftOutReason over its stores' bot requests); null for any other kind. */
  reason: BotReason | null;
  /** The documents it was made from, one per store. */
  docs: VisitorDay[];
}

/** The bot requests of a visitor-day's documents by reason, summed; undefined when none carries reasons. */
function reasonsOf(docs: readonly VisitorDay[]): BotsByReason | undefined {
  const carried = docs.filter((doc) => doc.bots_by !== undefined);
  return carried.length === 0 ? undefined : sumCounts(carried.map((doc) => doc.bots_by!));
}

/** Who a visitor-day document alone says its token was. */
export const kindOfDoc = (doc: VisitorDay): Who => whoOf(doc.self > 0, doc.requests, doc.bots);

/** The documents grouped into visitor-days, in the order first met. */
export function tokenDays(docs: readonly VisitorDay[]): TokenDay[] {
  const byKey = new Map<string, TokenDay>();
  for (const doc of docs) {
    const key = visitorDayKey(doc);
    const seen = byKey.get(key);
    if (seen) {
      seen.kind = stronger(seen.kind, kindOfDoc(doc));
      seen.docs.push(doc);
    } else {
      byKey.set(key, { day: doc.day, token: doc.token, kind: kindOfDoc(doc), reason: null, docs: [doc] });
    }
  }
  const days = [...byKey.values()];
  for (const day of days) day.reason = day.kind === 'scanners' ? leftOutReason(reasonsOf(day.docs)) : null;
  return days;
}

/** Count maps added together. */
export function sumCounts(maps: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const map of maps) for (const [name, count] of Object.entries(map)) sum[name] = (sum[name] ?? 0) + count;
  return sum;
}

/** The `count` largest entries of a count map, largest first (ties by name). */
export function topEntries(counts: Record<string, number>, count: number): Array<{ name: string; count: number }> {
  return Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, count)
    .map(([name, n]) => ({ name, count: n }));
}
