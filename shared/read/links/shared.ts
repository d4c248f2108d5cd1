import type { ActivityDeps } from '../activity/card';
import { readPeopleCount, type PeopleCountDeps } from '../counting/people-count';
import { ok } from '../../core/result';
import type { SharedLink } from '../../core/store/links';

/** What a link of one site reads: its card and its count. */
export interface SiteReads {
  activity: ActivityDeps;
  count: PeopleCountDeps;
}

/** What the shared view is told of its link: its site, label and what it fixes, never its token. */
const linkView = (link: SharedLink) => ({ site: link.site, label: link.label, filters: link.filters, days: link.days });

/** GET /api/shared/people: the link's site's count and the link's own words, read-only. */
export async function sharedPeople(link: SharedLink, site: SiteReads) {
  return ok({ ...(await readPeopleCount(site.count)), link: linkView(link) });
}
