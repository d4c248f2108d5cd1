import type { ActivityDocs } from '../store/activity';
import { emptyVisits, type VisitsSummaries } from '../store/visits';
import { rewrite } from './write';

/** Counts the visits of the days whose activity changed again, from the rows that carry a visit, into the visits summary. */
export async function foldVisits(
  store: { activity: Pick<ActivityDocs, 'visitsOn'>; visits: VisitsSummaries },
  days: readonly string[],
): Promise<void> {
  if (days.length === 0) return;
  const counts = await Promise.all(days.map(async (day) => [day, await store.activity.visitsOn(day)] as const));
  const read = await store.visits.read();
  const held = read?.doc ?? emptyVisits();
  const byDay = { ...held.by_day };
  for (const [day, visits] of counts) {
    if (visits > 0) byDay[day] = visits;
    else delete byDay[day];
  }
  const kept = Object.entries(byDay).sort(([a], [b]) => (a < b ? -1 : 1));
  const after = {
    ...held,
    by_day: Object.fromEntries(kept),
    all_time: kept.reduce((total, [, visits]) => total + visits, 0),
    from: kept[0]?.[0] ?? null,
  };
  await rewrite(store.visits, { before: read?.doc ?? null, etag: read?.etag ?? null, after }, 'visits summary');
}
