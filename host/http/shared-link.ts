import type { HttpHandler } from '@azure/functions';
import { refusedGuess, type AdminAccess } from './admin/auth';
import { errorAnswer, type Answer } from './envelope';
import type { IncomingRequest } from './request';
import { clientAddress } from '../../shared/core/identity/address';
import type { Result } from '../../shared/core/result';
import { linkId, type SharedLink, type SharedLinks } from '../../shared/core/store/links';
import { newPass, passOpens, passwordMatches, tokenHash, TOKEN_SHAPE } from '../../shared/read/links/secrets';
import type { SiteReads } from '../../shared/read/links/shared';
import { incoming, response } from './request';
import { answerOf } from './answer';
import type { Input } from './input';

export interface SharedReadDeps {
  links: SharedLinks;
  hashKey: string;
  /** Undefined for a site no longer declared. */
  readsOf: (site: string) => Promise<SiteReads | undefined>;
  access: AdminAccess;
}

const NO_STORE = { 'cache-control': 'no-store' };

const refused = (code: string, message: string): Answer => errorAnswer({ status: 401, code, message }, NO_STORE);

/** One message for a wrong token and a wrong password, so neither tells a guesser which it got right. */
const WRONG = 'The link or its password is wrong.';

/** `pass` is answered after a right password, for the viewer to send in its place. */
type Opened = { ok: true; link: SharedLink; site: SiteReads; pass?: string } | { ok: false; answer: Answer };

/** The token and the password are each counted before they are checked, the password per link. */
export async function openLink(request: IncomingRequest, deps: SharedReadDeps): Promise<Opened> {
  const token = request.header('x-share-token');
  if (token === null || token === '') return { ok: false, answer: refused('unauthorized', 'This address is not a whole shared link.') };
  const { guesses, trustedProxyHops, clock } = deps.access;
  const address = clientAddress(request.header('x-forwarded-for'), trustedProxyHops);
  const found: { link: SharedLink | null } = { link: null };
  const byToken = await guesses.checked('link', address, async () => {
    const read = TOKEN_SHAPE.test(token) ? await deps.links.read(linkId(tokenHash(deps.hashKey, token))) : null;
    found.link = read?.doc ?? null;
    return read !== null;
  });
  if (byToken.outcome !== 'right') return { ok: false, answer: refusedGuess(byToken, WRONG) };
  const link = found.link!;
  const site = await deps.readsOf(link.site);
  if (link.revoked_at !== null || site === undefined) return { ok: false, answer: refused('revoked', 'This link was revoked.') };
  if (link.expires_at !== null && Date.parse(link.expires_at) <= clock.now().getTime())
    return { ok: false, answer: refused('expired', 'This link has expired.') };
  if (link.password === null) return { ok: true, link, site };
  const now = clock.now().getTime();
  const pass = request.header('x-share-pass');
  if (pass !== null && passOpens(deps.hashKey, link.id, pass, now)) return { ok: true, link, site };
  const kept = link.password;
  const password = request.header('x-share-password');
  if (password === null || password === '') return { ok: false, answer: refused('password_required', 'This link asks for its password.') };
  const byPassword = await guesses.checked(`password:${link.id}`, address, () => passwordMatches(password.slice(0, 200), kept));
  if (byPassword.outcome !== 'right') return { ok: false, answer: refusedGuess(byPassword, WRONG) };
  return { ok: true, link, site, pass: newPass(deps.hashKey, link.id, now) };
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
      const pass: Record<string, string> = opened.pass === undefined ? {} : { 'x-share-pass': opened.pass };
      return response({ ...answer, headers: { ...NO_STORE, ...pass, ...answer.headers } });
    };
}
