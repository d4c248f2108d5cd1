import type { ActivityDocs } from '../store/activity';
import { emptyVisits, type VisitsSummaries } from '../store/visits';
import { recounted } from './by-day';
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
  const visits = recounted(held.by_day, counts);
  const after = { ...held, by_day: visits.byDay, all_time: visits.total, from: visits.first };
  await rewrite(store.visits, { before: read?.doc ?? null, etag: read?.etag ?? null, after }, 'visits summary');
}
