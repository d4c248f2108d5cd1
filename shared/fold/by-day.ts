/** A figure by UTC day after some days were counted again: days with none dropped, oldest first, and its total. */
export interface CountedAgain {
  byDay: Record<string, number>;
  total: number;
  /** The first day with any, or null. */
  first: string | null;
}

/** The held figures by day with each day counted again set to its new count (a count of 0 drops the day). */
export function countedAgain(
  held: Readonly<Record<string, number>>,
  counts: Iterable<readonly [day: string, count: number]>,
): CountedAgain {
  const byDay: Record<string, number> = { ...held };
  for (const [day, count] of counts) {
    if (count > 0) byDay[day] = count;
    else delete byDay[day];
  }
  const kept = Object.entries(byDay).sort(([a], [b]) => (a < b ? -1 : 1));
  return { byDay: Object.fromEntries(kept), total: kept.reduce((sum, [, count]) => sum + count, 0), first: kept[0]?.[0] ?? null };
}
