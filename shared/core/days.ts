/** UTC days as `yyyy-MM-dd`, the only days the count knows. */

const DAY_MS = 86_400_000;

/** The day `offset` days after `day` (before, when negative). */
export function addDays(day: string, offset: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
}

/** The `count` days ending with `last`, oldest first. */
export function daysEnding(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => addDays(last, index + 1 - count));
}

/** The first day of the month `day` is in. */
export const monthStart = (day: string): string => `${day.slice(0, 8)}01`;

/** The earlier of two days or instants, either of which may be missing (null). */
export const earlierOf = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a < b ? a : b);

/** The earlier of two days. */
export const earlierDay = (a: string, b: string): string => (a < b ? a : b);
