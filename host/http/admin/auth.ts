import { errorAnswer, type Answer, type AnswerCookie } from '../envelope';
import type { IncomingRequest } from '../request';
import { clientAddress } from '../../../shared/core/identity/address';
import { cookieValue, OPERATOR_COOKIE, presentedKey } from '../../../shared/core/identity/operator';
import { operatorCookieValue, sameSecret } from '../../../shared/core/identity/tokens';
import type { Clock } from '../../../shared/core/ports/clock';
import { failedChecks, type FailedChecks } from './attempts';
import { checkSession, renewsNow, SESSION_COOKIE, sessionKey, sessionTimes, sessionToken, type SessionTimes } from './session';

/**
 * The Admin's access in this process: the clock sessions are read on, how long one lasts unused, how the caller's
 * address is read (for the slowdown), and the failed checks of each address. One per process, built by the
 * composition root, so every admin route slows the same guesser.
 */
export interface AdminAccess {
  clock: Clock;
  sessionHours: number;
  trustedProxyHops: number;
  failures: FailedChecks;
}

/** The access from the clock and two settings' values, with the failed checks held in this process's memory. */
export function adminAccess(options: {
  clock: Clock;
  sessionHours: number;
  trustedProxyHops: number;
  failures?: FailedChecks;
}): AdminAccess {
  return { ...options, failures: options.failures ?? failedChecks(options.clock) };
}

/** What admin routes check a request against: the operator key, the hash key (the operator cookie, sessions), and the access. */
export interface OperatorSettings {
  operatorKey: string;
  hashKey: string;
  access: AdminAccess;
}

/** How long the operator cookie lasts: 400 days, the most browsers keep a cookie. */
export const OPERATOR_COOKIE_MAX_AGE = 400 * 86_400;

/**
 * The operator cookie: a keyed hash of a fixed label, HttpOnly, Secure and SameSite=Lax on every path of the site, so
 * every hit this browser sends afterwards is the site reading itself (shared/ingest/receive.ts reads it).
 */
export function operatorCookie(hashKey: string): AnswerCookie {
  return {
    name: OPERATOR_COOKIE,
    value: operatorCookieValue(hashKey),
    maxAge: OPERATOR_COOKIE_MAX_AGE,
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
    path: '/',
  };
}

/** The session cookie holding a token for these times (HttpOnly: no script of the page can read it), or one that removes it. */
export function sessionCookie(settings: OperatorSettings, times: SessionTimes | null, nowSeconds: number): AnswerCookie {
  const base = { name: SESSION_COOKIE, httpOnly: true, secure: true, sameSite: 'Strict' as const, path: '/' };
  if (times === null) return { ...base, value: '', maxAge: 0 };
  const value = sessionToken(sessionKey(settings.operatorKey, settings.hashKey), times);
  return { ...base, value, maxAge: Math.max(0, times.expiresAt - nowSeconds) };
}

const NO_STORE = { 'cache-control': 'no-store' };

/** Who a checked request is: the operator by the key or by a session, with the cookies its answer sets (a renewed session). */
export type OperatorCheck =
  | { ok: true; via: 'key'; cookies: AnswerCookie[] }
  | { ok: true; via: 'session'; times: SessionTimes; cookies: AnswerCookie[] }
  | { ok: false; why: 'none' | 'ended' | 'wrong' | 'waiting'; answer: Answer };

const unauthorized = (
  why: 'none' | 'ended' | 'wrong',
  message: string,
  cookies: AnswerCookie[] = [],
  headers: Record<string, string> = {},
): OperatorCheck => ({
  ok: false,
  why,
  answer: {
    ...errorAnswer({ status: 401, code: 'unauthorized', message }, { 'www-authenticate': 'Bearer', ...NO_STORE, ...headers }),
    ...(cookies.length > 0 ? { cookies } : {}),
  },
});

/** The words of a wait, "1 second", "30 seconds". */
const secondsWords = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;

/**
 * Checks a request for the operator key (`Authorization: Bearer …` or `x-operator-key`, for scripts) or the Admin
 * session cookie (the dashboard). A request with neither is 401 and costs nothing. A wrong key, or a session cookie
 * the key did not make, counts as a failed check from the caller's address (SLOWDOWN): once its free tries are
 * spent, the address waits before its next check, answered 429 with Retry-After until then, whatever it presents.
 * A session that has run out is 401 and removed, but is no failure: it was real. A session used is renewed.
 */
export function checkOperator(request: IncomingRequest, settings: OperatorSettings): OperatorCheck {
  const { access } = settings;
  const key = presentedKey((name) => request.header(name));
  const token = key === null ? cookieValue(request.header('cookie'), SESSION_COOKIE) : null;
  if (key === null && (token === null || token === '')) {
    return unauthorized(
      'none',
      'authorization: sign in on the dashboard, or send the operator key (Authorization: Bearer <key> or x-operator-key)',
    );
  }
  const address = clientAddress(request.header('x-forwarded-for'), access.trustedProxyHops);
  const wait = access.failures.waitFor(address);
  if (wait > 0) {
    return {
      ok: false,
      why: 'waiting',
      answer: errorAnswer(
        {
          status: 429,
          code: 'too_many_attempts',
          message: `authorization: too many wrong keys from this address; the next try is checked in ${secondsWords(wait)}`,
        },
        { 'retry-after': String(wait), ...NO_STORE },
      ),
    };
  }
  const nowSeconds = Math.floor(access.clock.now().getTime() / 1000);
  const failed = (message: string, cookies: AnswerCookie[] = []) => {
    const next = access.failures.failed(address);
    return next === 0
      ? unauthorized('wrong', message, cookies)
      : unauthorized('wrong', `${message}; this address waits ${secondsWords(next)} before its next try`, cookies, {
          'retry-after': String(next),
        });
  };
  if (key !== null) {
    if (!sameSecret(key, settings.operatorKey)) return failed('authorization: the operator key is wrong');
    access.failures.succeeded(address);
    return { ok: true, via: 'key', cookies: [] };
  }
  const removed = [sessionCookie(settings, null, nowSeconds)];
  const session = checkSession(token!, sessionKey(settings.operatorKey, settings.hashKey), nowSeconds);
  if (session.state === 'forged') return failed("authorization: the session cookie was not made with this app's key", removed);
  if (session.state === 'ended') return unauthorized('ended', 'authorization: the session has ended; sign in again', removed);
  if (!renewsNow(session.times, nowSeconds, access.sessionHours)) return { ok: true, via: 'session', times: session.times, cookies: [] };
  const renewed = sessionTimes(session.times.signedInAt, nowSeconds, access.sessionHours);
  return { ok: true, via: 'session', times: renewed, cookies: [sessionCookie(settings, renewed, nowSeconds)] };
}

/**
 * An admin read: the error envelope (401, or 429 while the caller's address waits) without the operator key or a live
 * session; otherwise the route's answer, not cached, with the operator cookie set (and a renewed session's cookie).
 */
export async function asOperator(request: IncomingRequest, settings: OperatorSettings, answer: () => Promise<Answer>): Promise<Answer> {
  const check = checkOperator(request, settings);
  if (!check.ok) return check.answer;
  const answered = await answer();
  return {
    ...answered,
    headers: { ...NO_STORE, ...answered.headers },
    cookies: [...(answered.cookies ?? []), operatorCookie(settings.hashKey), ...check.cookies],
  };
}
