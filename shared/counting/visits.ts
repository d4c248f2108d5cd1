import { kindOf, stronger, type VisitorKind } from '../identity/kinds';
import { isLoopbackNetwork } from '../identity/network';
import type { VisitorDay } from '../store/activity';

/** Visits by people by day (`yyyy-MM-dd` → visits); days with none are absent. */
export type VisitsByDay = Record<string, number>;

/** Which visitor-day a row belongs to: its daily token on its day on any store, and every loopback row of a day as one machine. */
export const visitorDayKey = (row: VisitorDay): string => `${row.day}|${isLoopbackNetwork(row.network) ? 'loopback' : row.token}`;

/**
 * Visits by people in these visitor-day rows: one a person a day. A daily token is one visitor on its day whichever
 * stores it was seen on, and every loopback row on a day is one machine; each visitor's kind is the one rule's
 * (kindOf per row, the stronger across rows), and only people count: scanners and the site's own reads are none.
 */
export function countVisits(rows: readonly VisitorDay[]): VisitsByDay {
  const kinds = new Map<string, { day: string; kind: VisitorKind }>();
  for (const row of rows) {
    const visitor = visitorDayKey(row);
    const kind = kindOf(row.self > 0, row.requests, row.bots);
    const seen = kinds.get(visitor);
    kinds.set(visitor, { day: row.day, kind: seen ? stronger(seen.kind, kind) : kind });
  }
  const byDay: VisitsByDay = {};
  for (const { day, kind } of kinds.values()) {
    if (kind === 'people') byDay[day] = (byDay[day] ?? 0) + 1;
  }
  return sortedDays(byDay);
}

/**
 * The held count with the days read again replaced by a fresh read from `since` on: a day read again with no person
 * in it has no visits, and the days before the read stay as they were.
 */
export function mergeVisits(held: VisitsByDay, fresh: VisitsByDay, since: string): VisitsByDay {
  const kept = Object.entries(held).filter(([day]) => day < since);
  return sortedDays({ ...Object.fromEntries(kept), ...fresh });
}

/** The total and the first day of a count by day; the first day is null when there are no visits. */
export function visitsTotals(byDay: VisitsByDay): { all_time: number; from: string | null } {
  const days = Object.keys(byDay).sort();
  return { all_time: Object.values(byDay).reduce((sum, visits) => sum + visits, 0), from: days[0] ?? null };
}

const sortedDays = (byDay: VisitsByDay): VisitsByDay =>
  Object.fromEntries(Object.entries(byDay).filter(([, visits]) => visits > 0).sort(([a], [b]) => (a < b ? -1 : 1)));
