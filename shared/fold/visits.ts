import { boundedMap } from '../core/bounded-map';
import type { ActivityDocs } from '../core/store/activity';
import type { DayRollups } from '../core/store/rollups';
import { emptyVisits, type VisitsSummaries } from '../core/store/visits';
import { countedAgain } from './by-day';
import { conditionalWriteOnce } from '../core/store/conditional-write';

const DAYS_AT_ONCE = 8;

/**
 * A built rollup holds the day's people; while it is built, the visitor-days that carry a visit are counted instead.
 * Imported daily visitors count when they are more, as when a log covers only part of the day.
 */
async function visitsOn(store: { activity: Pick<ActivityDocs, 'visitsOn'>; rollups: DayRollups }, day: string): Promise<number> {
  const rollup = await store.rollups.read(day);
  const imported = rollup?.doc.imported?.visitors ?? 0;
  if (rollup !== null && rollup.doc.building === null) return Math.max(rollup.doc.visitor_days.people, imported);
  return Math.max(await store.activity.visitsOn(day), imported);
}

export async function foldVisits(
  store: { activity: Pick<ActivityDocs, 'visitsOn'>; rollups: DayRollups; visits: VisitsSummaries },
  days: readonly string[],
): Promise<void> {
  if (days.length === 0) return;
  const counts: Array<readonly [string, number]> = [];
  await boundedMap(days, DAYS_AT_ONCE, async (day) => counts.push([day, await visitsOn(store, day)] as const));
  const read = await store.visits.read();
  const held = read?.doc ?? emptyVisits();
  const visits = countedAgain(held.by_day, counts);
  const after = { ...held, by_day: visits.byDay, all_time: visits.total, from: visits.first };
  await conditionalWriteOnce(store.visits, { before: read?.doc ?? null, etag: read?.etag ?? null, after }, 'visits summary');
}
