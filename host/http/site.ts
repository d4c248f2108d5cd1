import { checkOperator, type OperatorSettings } from './admin/auth';
import { errorAnswer, type Answer } from './envelope';
import type { IncomingRequest } from './request';
import { readSite } from '../../shared/core/sites/hit-site';
import type { SiteBook, SiteRoot } from '../site-root';

/** Only the operator is told a site is not declared, so a guesser cannot learn which sites are. */
export async function siteAnswer(
  request: IncomingRequest,
  book: SiteBook,
  answer: (site: SiteRoot) => Promise<Answer>,
  operator?: OperatorSettings,
): Promise<Answer> {
  const sites = await book.current();
  const name = readSite(request.query.get('site'), sites.declared);
  const site = name.ok ? sites.roots.get(name.value) : undefined;
  if (site !== undefined) return answer(site);
  if (operator !== undefined) {
    const check = await checkOperator(request, operator);
    if (!check.ok) return check.answer;
  }
  return name.ok ? answer(sites.roots.get(sites.declared[0]!.name)!) : errorAnswer(name.failure);
}
