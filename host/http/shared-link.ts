import type { HttpHandler } from '@azure/functions';
import type { AdminAccess } from './admin/auth';
import { errorAnswer, type Answer } from './envelope';
import type { IncomingRequest } from './request';
import { clientAddress } from '../../shared/core/identity/address';
import type { Result } from '../../shared/core/result';
import { linkId, type SharedLink, type SharedLinks } from '../../shared/core/store/links';
import { passwordMatches, tokenHash, TOKEN_SHAPE } from '../../shared/read/links/secrets';
import type { SiteReads } from '../../shared/read/links/shared';
import { incoming, response } from './request';
import { answerOf } from './answer';
import type { Input } from './input';

export interface SharedReadDeps {
  links: SharedLinks;
  hashKey: string;
  /** Undefined for a site no longer declared. */
  readsOf: (site: string) => SiteReads | undefined;
  access: AdminAccess;
}

const NO_STORE = { 'cache-control': 'no-store' };

const refused = (code: string, message: string, wait = 0): Answer =>
  errorAnswer({ status: 401, code, message }, wait > 0 ? { ...NO_STORE, 'retry-after': String(wait) } : NO_STORE);

type Opened = { ok: true; link: SharedLink; site: SiteReads } | { ok: false; answer: Answer };

/** A right token forgets no failures, or a guesser holding one link could clear them with it. */
export async function openLink(request: IncomingRequest, deps: SharedReadDeps): Promise<Opened> {
  const token = request.header('x-share-token');
  if (token === null || token === '') return { ok: false, answer: refused('unauthorized', 'x-share-token: the link is missing') };
  const address = clientAddress(request.header('x-forwarded-for'), deps.access.trustedProxyHops);
  const wait = deps.access.failures.waitFor(address);
  if (wait > 0)
    return {
      ok: false,
      answer: errorAnswer(
        { status: 429, code: 'too_many_attempts', message: `x-share-token: too many wrong links from this address; wait ${wait} s` },
        { ...NO_STORE, 'retry-after': String(wait) },
      ),
    };
  const wrong = (field: string) => {
    const next = deps.access.failures.failed(address);
    return { ok: false as const, answer: refused('unauthorized', `${field}: the link or its password is wrong`, next) };
  };
  const read = TOKEN_SHAPE.test(token) ? await deps.links.read(linkId(tokenHash(deps.hashKey, token))) : null;
  if (read === null) return wrong('x-share-token');
  const link = read.doc;
  if (link.revoked_at !== null) return { ok: false, answer: refused('revoked', 'x-share-token: the link was revoked') };
  if (link.expires_at !== null && Date.parse(link.expires_at) <= deps.access.clock.now().getTime())
    return { ok: false, answer: refused('expired', 'x-share-token: the link has expired') };
  if (link.password !== null) {
    const password = request.header('x-share-password');
    if (password === null || password === '')
      return { ok: false, answer: refused('password_required', 'x-share-password: the link asks for its password') };
    if (!(await passwordMatches(password.slice(0, 200), link.password))) return wrong('x-share-password');
  }
  const site = deps.readsOf(link.site);
  if (site === undefined) return { ok: false, answer: refused('revoked', 'x-share-token: the link is of a site no longer declared') };
  return { ok: true, link, site };
}

/** The link's fixed period replaces any asked, and its filters are added to the viewer's, which can only narrow them. */
function fixedQuery(request: IncomingRequest, link: SharedLink): IncomingRequest {
  const query = new URLSearchParams(request.query);
  query.delete('site');
  if (link.days !== null) {
    for (const name of ['days', 'from', 'to']) query.delete(name);
    query.set('days', link.days);
  }
  const asked = query.getAll('filter').filter((filter) => !link.filters.includes(filter));
  query.delete('filter');
  for (const filter of [...link.filters, ...asked]) query.append('filter', filter);
  return { ...request, query };
}

export function sharedRoute<T, V>(input: Input<T>, run: (input: T, link: SharedLink, site: SiteReads) => Promise<Result<V>>) {
  return (root: { shared: SharedReadDeps }): HttpHandler =>
    async (request) => {
      const asked = incoming(request);
      const opened = await openLink(asked, root.shared);
      if (!opened.ok) return response(opened.answer);
      const read = await input(fixedQuery(asked, opened.link));
      const answer = read.ok ? answerOf(await run(read.value, opened.link, opened.site)) : errorAnswer(read.failure);
      return response({ ...answer, headers: { ...NO_STORE, ...answer.headers } });
    };
}
