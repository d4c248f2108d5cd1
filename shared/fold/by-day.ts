/** Days with none dropped, oldest first. */
export interface CountedAgain {
  byDay: Record<string, number>;
  total: number;
  first: string | null;
}

/** A count of 0 drops the day. */
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
