import { periodReport, type ActivityDeps } from '../activity/report';
import { ok, type Result } from '../../core/result';
import type { CardQuery } from '../../contract/queries';
import type { SharedCardAnswer } from '../../contract/links';
import type { SharedLink } from '../../core/store/links';

export interface SiteReads {
  activity: ActivityDeps;
}

/** Never its token. */
const viewOf = (link: SharedLink) => ({ site: link.site, label: link.label, days: link.days, filters: link.filters });

/** The card under the link's view, less what lies outside it: the last hours of every path, goals' all-time people, the store's counters. */
export async function sharedActivity(query: CardQuery, link: SharedLink, site: SiteReads): Promise<Result<SharedCardAnswer>> {
  const card = await periodReport(query, site.activity);
  if (!card.ok) return card;
  const { hours: _hours, cost: _cost, goals, ...inView } = card.value;
  const periodGoals = goals?.map(({ people_all_time: _ever, first_touch: _first, ...goal }) => goal) ?? null;
  return ok({ ...inView, goals: periodGoals, view: viewOf(link) });
}
