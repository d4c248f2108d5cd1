import type { TokenDay } from './token-days';

/** One UTC day of the chart: visitor-days split into the three kinds, which add up to the total. */
export interface DayOfKinds {
  day: string;
  people: number;
  scanners: number;
  self: number;
  total: number;
}

/** Every day asked for, oldest first, with zeros on a day with nothing, so a chart has every day. */
export function byDay(visitorDays: readonly TokenDay[], days: readonly string[]): DayOfKinds[] {
  const rows = new Map(days.map((day) => [day, { day, people: 0, scanners: 0, self: 0, total: 0 }]));
  for (const visitorDay of visitorDays) {
    const row = rows.get(visitorDay.day);
    if (!row) continue;
    row[visitorDay.kind] += 1;
    row.total += 1;
  }
  return [...rows.values()];
}
