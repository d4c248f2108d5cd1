const HOUR_MS = 3_600_000;

/** Oldest first, as ISO instants. */
export function lastHours(now: Date, count: number): string[] {
  const hour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return Array.from({ length: count }, (_, i) => new Date(hour - (count - 1 - i) * HOUR_MS).toISOString());
}
