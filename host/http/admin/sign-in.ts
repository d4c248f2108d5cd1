import type { HttpHandler } from '@azure/functions';
import { errorAnswer, type Answer } from '../envelope';
import { incoming, response, type IncomingRequest } from '../request';
import type { SessionAnswer } from '../../../shared/contract/admin';
import type { Root } from '../../composition';
import { cookieValue, presentedKey } from '../../../shared/core/identity/operator';
import { retryConditionalWrite } from '../../../shared/core/store/conditional-write';
import { sessionDocId } from '../../../shared/core/store/sessions';
import { checkOperator, operatorCookie, presentedSession, sessionCookie, type OperatorSettings } from './auth';
import { liveTimes, newSessionId, SESSION_COOKIE, sessionDoc, sessionTimes } from './session';

const NO_STORE = { 'cache-control': 'no-store' };

/** A script sends no `Sec-Fetch-Site` and is judged by its key, so a cookie alone never changes anything. */
const fromAnotherSite = (request: IncomingRequest) => {
  const site = request.header('sec-fetch-site');
  return site !== null && site !== 'same-origin' && site !== 'none';
};

const crossSite = (): Answer =>
  errorAnswer(
    { status: 403, code: 'cross_site', message: 'sec-fetch-site: the Admin session is only changed from the dashboard itself' },
    NO_STORE,
  );

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The session's state as the contract declares it. */
const stateAnswer = (state: SessionAnswer, cookies: Answer['cookies']): Answer => ({
  status: 200,
  headers: NO_STORE,
  body: state,
  cookies,
});

const nowIn = (settings: OperatorSettings) => Math.floor(settings.access.clock.now().getTime() / 1000);

/** GET: asking whether one is signed in is no error, and the answer to none or one run out is "no". */
export async function sessionState(request: IncomingRequest, settings: OperatorSettings): Promise<Answer> {
  const check = await checkOperator(request, settings);
  if (!check.ok) {
    const no = check.why === 'none' || check.why === 'ended';
    return no ? stateAnswer({ signed_in: false, ended: check.why === 'ended' }, check.answer.cookies) : check.answer;
  }
  const expires = check.via === 'session' ? iso(check.times.expiresAt) : null;
  return stateAnswer({ signed_in: true, via: check.via, expires_at: expires, session_hours: settings.access.sessionHours }, check.cookies);
}

/** POST trades the key for a session cookie, so the key itself is never kept in the browser. */
export async function signIn(request: IncomingRequest, settings: OperatorSettings): Promise<Answer> {
  if (fromAnotherSite(request)) return crossSite();
  // A session is only ever made from the key: a cookie alone never makes another.
  if (presentedKey((name) => request.header(name)) === null) {
    return errorAnswer(
      { status: 401, code: 'unauthorized', message: 'authorization: signing in takes the operator key (Authorization: Bearer <key>)' },
      { 'www-authenticate': 'Bearer', ...NO_STORE },
    );
  }
  const check = await checkOperator(request, settings);
  if (!check.ok) return check.answer;
  const nowSeconds = nowIn(settings);
  const held = { id: newSessionId(), times: sessionTimes(nowSeconds, nowSeconds, settings.access.sessionHours) };
  await settings.access.sessions.create(sessionDoc(held.id, held.times, nowSeconds));
  const { sessionHours } = settings.access;
  return stateAnswer({ signed_in: true, via: 'session', expires_at: iso(held.times.expiresAt), session_hours: sessionHours }, [
    sessionCookie(settings, held, nowSeconds),
    operatorCookie(settings.hashKey),
  ]);
}

/** Ends the session in the store, so the cookie replayed later opens nothing. */
async function endSession(token: string | null, settings: OperatorSettings, nowSeconds: number): Promise<void> {
  const id = token === null ? null : presentedSession(token, settings);
  if (id === null) return;
  await retryConditionalWrite(
    settings.access.sessions,
    [sessionDocId(id)],
    async (current) => (liveTimes(current, nowSeconds) === null ? null : { ...current!, expires_at: nowSeconds, ttl: 1 }),
    'the Admin session',
  );
}

/** DELETE ends the session on the server and removes its cookie, only from the dashboard itself. */
export async function signOut(request: IncomingRequest, settings: OperatorSettings): Promise<Answer> {
  if (fromAnotherSite(request)) return crossSite();
  const nowSeconds = nowIn(settings);
  await endSession(cookieValue(request.header('cookie'), SESSION_COOKIE), settings, nowSeconds);
  return { status: 204, headers: NO_STORE, cookies: [sessionCookie(settings, null, nowSeconds)] };
}

/** The session is the operator's check itself, all HTTP: its cookies, headers and statuses. */
export const sessionRoute =
  (answer: (request: IncomingRequest, settings: OperatorSettings) => Promise<Answer>) =>
  (root: Root): HttpHandler =>
  async (request) =>
    response(await answer(incoming(request), root.operator));
