import type { ActivityDeps } from '../activity/card';
import { readPeopleCount, type PeopleCountDeps } from '../counting/people-count';
import { ok } from '../../core/result';
import type { SharedLink } from '../../core/store/links';

export interface SiteReads {
  activity: ActivityDeps;
  count: PeopleCountDeps;
}

/** Never its token. */
const linkView = (link: SharedLink) => ({ site: link.site, label: link.label, filters: link.filters, days: link.days });

export async function sharedPeople(link: SharedLink, site: SiteReads) {
  return ok({ ...(await readPeopleCount(site.count)), link: linkView(link) });
}
