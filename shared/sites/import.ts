import type { Answer } from '../http/envelope';
import { errorAnswer } from '../http/envelope';
import { badRequest } from '../core/result';
import type { IncomingRequest } from '../http/request';
import type { ImportDeps } from '../ingest/import/receive';
import type { Sites } from './root';

/**
 * POST /api/import?site=<name>: the import's deps for a declared site (its store, and the site named on its hits), the
 * first declared site's when none is named. All sites together are no site to import into: `*` is 400 naming `site`.
 */
export function importForSite(
  request: IncomingRequest,
  sites: Sites,
  imports: ImportDeps,
  answer: (deps: ImportDeps) => Promise<Answer>,
): Promise<Answer> {
  const asked = request.query.get('site');
  const first = sites.declared[0]!.name;
  if (asked === null || asked === '' || asked === first) return answer(imports);
  const site = sites.declared.some((one) => one.name === asked) ? sites.roots.get(asked) : undefined;
  if (site === undefined)
    return Promise.resolve(errorAnswer(badRequest([{ path: 'site', message: 'must be a site declared in SITES (not *)' }])));
  return answer({ ...imports, store: site.store, site: asked });
}
