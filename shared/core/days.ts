/** Days are UTC, written `yyyy-MM-dd`. */

const DAY_MS = 86_400_000;

/** A negative `offset` goes back. */
export function addDays(day: string, offset: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
}

/** Oldest first. */
export function daysEnding(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => addDays(last, index + 1 - count));
}

export const monthStart = (day: string): string => `${day.slice(0, 8)}01`;

export const earlierOf = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a < b ? a : b);

export const earlierDay = (a: string, b: string): string => (a < b ? a : b);

/** How many days from `from` to `to`, both included. */
export const daySpan = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
