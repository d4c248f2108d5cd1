import type { AllSitesFromDocs } from '../core/store/all-sites';
import { ALL_SITES_FROM_ID } from '../core/store/all-sites';
import { VISITORS_PK } from '../core/store/visitors';

/** The timer's first run with several sites marks today in `*`'s store; a create that finds it there (409) leaves it. */
export async function markAllSitesFrom(docs: AllSitesFromDocs, today: string): Promise<void> {
  if ((await docs.read()) !== null) return;
  await docs.create({ id: ALL_SITES_FROM_ID, pk: VISITORS_PK, kind: 'all-sites-from', day: today });
}
