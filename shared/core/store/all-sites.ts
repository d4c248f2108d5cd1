import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

export const ALL_SITES_FROM_ID = 'all-sites-from';

/** In `*`'s store: the first day it holds, the days before being the first site's alone. Created once, never changed. */
export interface AllSitesFrom {
  id: typeof ALL_SITES_FROM_ID;
  pk: typeof VISITORS_PK;
  kind: 'all-sites-from';
  day: string;
}

export type AllSitesFromDocs = Conditional<AllSitesFrom, []>;
