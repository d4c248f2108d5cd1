import { checkOperator, type OperatorSettings } from './admin/auth';
import { errorAnswer, type Answer } from './envelope';
import type { IncomingRequest } from './request';
import { readSite } from '../../shared/core/sites/hit-site';
import type { SiteRoot, Sites } from '../../shared/sites/root';

/**
 * A read of one site (`site=<name>`), of all sites together (`site=*`), or by default of the only site (all of them
 * when several): the use case answers from that site's root. A site not declared is a 400 naming `site`, told only to
 * the operator when `operator` is given, so a guesser cannot learn which sites are declared.
 */
export async function siteAnswer(
  request: IncomingRequest,
  sites: Sites,
  answer: (site: SiteRoot) => Promise<Answer>,
  operator?: OperatorSettings,
): Promise<Answer> {
  const name = readSite(request.query.get('site'), sites.declared);
  const site = name.ok ? sites.roots.get(name.value) : undefined;
  if (site !== undefined) return answer(site);
  if (operator !== undefined) {
    const check = checkOperator(request, operator);
    if (!check.ok) return check.answer;
  }
  return name.ok ? answer(sites.roots.get(sites.declared[0]!.name)!) : errorAnswer(name.failure);
}
