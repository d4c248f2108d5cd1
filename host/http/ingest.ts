import type { HttpHandler } from '@azure/functions';
import { badRequest, type Result } from '../../shared/core/result';
import { sameSecret } from '../../shared/core/identity/tokens';
import { errorAnswer, type Answer } from '../../shared/http/envelope';
import type { IncomingRequest } from '../../shared/http/request';
import type { ImportDeps } from '../../shared/ingest/import/receive';
import { readServerHits, receiveServerHits, type ReceiveDeps } from '../../shared/ingest/receive';
import { INGEST_LIMITS } from '../../shared/ingest/schemas';
import type { Sites } from '../../shared/sites/root';
import type { Root } from '../composition';
import { accepted, answerOf, type Reply } from './answer';
import { bodyWith, type Input } from './input';
import { incoming, response } from './request';

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

/** A write with the ingest key (`x-ingest-key`): 401 without it, then its input read and its use case run. */
export async function ingestRead<T, V>(
  request: IncomingRequest,
  ingestKey: string,
  input: Input<T>,
  run: (input: T) => Promise<Result<V>>,
  reply?: Reply<V>,
): Promise<Answer> {
  if (!sameSecret(request.header('x-ingest-key'), ingestKey)) {
    return errorAnswer({ status: 401, code: 'unauthorized', message: 'x-ingest-key is missing or wrong' });
  }
  const read = await input(request);
  if (!read.ok) return errorAnswer(read.failure);
  return answerOf(await run(read.value), reply);
}

/** An import into the site the query names, with the ingest key, as `ingestRead`. */
export function importRoute<T, V>(
  input: Input<T>,
  run: (input: T, deps: ImportDeps) => Promise<Result<V>>,
  reply?: Reply<V>,
): (root: Root) => HttpHandler {
  return (root) => async (request) => {
    const asked = incoming(request);
    const read = (deps: ImportDeps) => ingestRead(asked, deps.ingestKey, input, (value) => run(value, deps), reply);
    return response(await importForSite(asked, root.sites, root.imports, read));
  };
}

/** POST /api/hits: the ingest key, then the site's server's hits (one, or `{"hits": [...]}`), then the use case. */
export const answerServerHits = (request: IncomingRequest, deps: ReceiveDeps): Promise<Answer> =>
  ingestRead(
    request,
    deps.ingestKey,
    bodyWith(readServerHits, INGEST_LIMITS.maxHitsBodyBytes, ['application/json']),
    (hits) => receiveServerHits(hits, deps),
    accepted,
  );
