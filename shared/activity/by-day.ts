import { BOT_REASONS, type BotReason } from '../identity/kinds';
import type { TokenDay } from './token-days';

/**
 * One UTC day of the chart: visitor-days split into the three kinds, which add up to the total, and the scanners'
 * visitor-days by the reason they were left out (a scanner kept before reasons were carried is in `scanners` only).
 */
export interface DayOfKinds {
  day: string;
  people: number;
  scanners: number;
  self: number;
  total: number;
  left_out: Record<BotReason, number>;
}

const noneLeftOut = (): Record<BotReason, number> =>
  Object.fromEntries(BOT_REASONS.map((reason) => [reason, 0])) as Record<BotReason, number>;

/** Every day asked for, oldest first, with zeros on a day with nothing, so a chart has every day. */
export function byDay(visitorDays: readonly TokenDay[], days: readonly string[]): DayOfKinds[] {
  const rows = new Map<string, DayOfKinds>(
    days.map((day) => [day, { day, people: 0, scanners: 0, self: 0, total: 0, left_out: noneLeftOut() }]),
  );
  for (const visitorDay of visitorDays) {
    const row = rows.get(visitorDay.day);
    if (!row) continue;
    row[visitorDay.kind] += 1;
    row.total += 1;
    if (visitorDay.reason !== null) row.left_out[visitorDay.reason] += 1;
  }
  return [...rows.values()];
}
