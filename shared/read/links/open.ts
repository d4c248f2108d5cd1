import { activityCard } from '../activity/card';
import { activityQuerySchema, readQuery } from '../activity/query';
import type { AdminAccess } from '../../http/admin/auth';
import { readPeopleCount } from '../counting/people-count';
import { errorAnswer, type Answer } from '../../http/envelope';
import type { IncomingRequest } from '../../http/request';
import { clientAddress } from '../../core/identity/address';
import type { ActivityDeps } from '../activity/card';
import type { PeopleCountDeps } from '../counting/people-count';
import { linkId, type SharedLink, type SharedLinks } from '../../core/store/links';
import { passwordMatches, tokenHash, TOKEN_SHAPE } from './secrets';

/** What a link of one site reads: its card and its count. */
export interface SiteReads {
  activity: ActivityDeps;
  count: PeopleCountDeps;
}

/** What a shared link's reads need: the links, the server's key, each site's reads and the access that slows guessers. */
export interface SharedReadDeps {
  links: SharedLinks;
  hashKey: string;
  /** A link's site's reads (the first site's for all sites together when only one is declared); none for a site no longer declared. */
  readsOf: (site: string) => SiteReads | undefined;
  access: AdminAccess;
}

const NO_STORE = { 'cache-control': 'no-store' };

const refused = (code: string, message: string, wait = 0): Answer =>
  errorAnswer({ status: 401, code, message }, wait > 0 ? { ...NO_STORE, 'retry-after': String(wait) } : NO_STORE);

type Opened = { ok: true; link: SharedLink; site: SiteReads } | { ok: false; answer: Answer };

/**
 * The link a request presents (`x-share-token`, and `x-share-password` for a link with one), or why not. A wrong token
 * or password counts against the caller's address as a wrong operator key does, and a right one forgets nothing (a
 * guesser holding one link could otherwise clear its failures with it). Revoked or expired is 401, and no failure.
 */
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

/** The request as the link lets it read: its fixed period and filters in place of any asked. */
function fixedQuery(request: IncomingRequest, link: SharedLink): IncomingRequest {
  const query = new URLSearchParams(request.query);
  query.delete('site');
  if (link.days !== null) {
    for (const name of ['days', 'from', 'to']) query.delete(name);
    query.set('days', link.days);
  }
  if (link.filters.length > 0) {
    query.delete('filter');
    for (const filter of link.filters) query.append('filter', filter);
  }
  return { ...request, query };
}

/** What the shared view is told of its link: its site, label and what it fixes, never its token. */
const linkView = (link: SharedLink) => ({ site: link.site, label: link.label, filters: link.filters, days: link.days });

/** GET /api/shared/activity: the Activity card of the link's site, read-only, with the link's fixed query. */
export async function sharedActivity(request: IncomingRequest, deps: SharedReadDeps): Promise<Answer> {
  const opened = await openLink(request, deps);
  if (!opened.ok) return opened.answer;
  const query = readQuery(activityQuerySchema, fixedQuery(request, opened.link));
  const card = query.ok ? await activityCard(query.value, opened.site.activity) : query;
  return card.ok ? { status: 200, body: card.value, headers: NO_STORE } : errorAnswer(card.failure, NO_STORE);
}

/** GET /api/shared/people: the link's site's count and the link's own words, read-only. */
export async function sharedPeople(request: IncomingRequest, deps: SharedReadDeps): Promise<Answer> {
  const opened = await openLink(request, deps);
  if (!opened.ok) return opened.answer;
  const count = await readPeopleCount(opened.site.count);
  return { status: 200, body: { ...count, link: linkView(opened.link) }, headers: NO_STORE };
}
