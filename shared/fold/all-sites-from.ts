import type { AllSitesFromDocs } from '../core/store/all-sites';
import { ALL_SITES_FROM_ID } from '../core/store/all-sites';
import { firstKeptDay } from '../core/store/first-day';
import type { VisitorsSummaries } from '../core/store/summary';
import type { VisitsSummaries } from '../core/store/visits';
import { VISITORS_PK } from '../core/store/visitors';

type AllSitesStore = { allSitesFrom: AllSitesFromDocs; visitorsSummary: VisitorsSummaries; visits: VisitsSummaries };

/**
 * The timer's first run with several sites marks the day `*` began in its store: today, or the first day `*` already
 * holds (a deployment that counted several sites before), so no day is read from both stores. A create that finds it
 * there (409) leaves it.
 */
export async function markAllSitesFrom(store: AllSitesStore, today: string): Promise<void> {
  if ((await store.allSitesFrom.read()) !== null) return;
  const held = await firstKeptDay(store);
  const day = held !== null && held < today ? held : today;
  await store.allSitesFrom.create({ id: ALL_SITES_FROM_ID, pk: VISITORS_PK, kind: 'all-sites-from', day });
}
