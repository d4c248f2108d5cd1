import type { ActivityDeps } from '../activity/card';
import { readPeopleCount, type PeopleCountDeps } from '../counting/people-count';
import { ok, type Result } from '../../core/result';
import type { SharedPeopleAnswer } from '../../contract/links';
import type { SharedLink } from '../../core/store/links';

export interface SiteReads {
  activity: ActivityDeps;
  count: PeopleCountDeps;
}

/** Never its token. */
const linkView = (link: SharedLink) => ({ site: link.site, label: link.label, filters: link.filters, days: link.days });

export async function sharedPeople(link: SharedLink, site: SiteReads): Promise<Result<SharedPeopleAnswer>> {
  return ok({ ...(await readPeopleCount(site.count)), link: linkView(link) });
}
