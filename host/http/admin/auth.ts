import { errorAnswer, type Answer, type AnswerCookie } from '../envelope';
import type { IncomingRequest } from '../request';
import { clientAddress } from '../../../shared/core/identity/address';
import { cookieValue, OPERATOR_COOKIE, presentedKey } from '../../../shared/core/identity/operator';
import { operatorCookieValue, sameSecret } from '../../../shared/core/identity/tokens';
import type { Clock } from '../../../shared/core/ports/clock';
import { failedChecks, type FailedChecks } from './attempts';
import { checkSession, renewsNow, SESSION_COOKIE, sessionKey, sessionTimes, sessionToken, type SessionTimes } from './session';

/** One per process, so every admin route slows the same guesser. */
export interface AdminAccess {
  clock: Clock;
  sessionHours: number;
  trustedProxyHops: number;
  failures: FailedChecks;
}

export function adminAccess(options: {
  clock: Clock;
  sessionHours: number;
  trustedProxyHops: number;
  failures?: FailedChecks;
}): AdminAccess {
  return { ...options, failures: options.failures ?? failedChecks(options.clock) };
}

export interface OperatorSettings {
  operatorKey: string;
  hashKey: string;
  access: AdminAccess;
}

/** 400 days, the most browsers keep a cookie. */
export const OPERATOR_COOKIE_MAX_AGE = 400 * 86_400;

/** On every path, so each hit this browser sends is known as the site reading itself. */
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

/** Null times make a cookie that removes the session. */
export function sessionCookie(settings: OperatorSettings, times: SessionTimes | null, nowSeconds: number): AnswerCookie {
  const base = { name: SESSION_COOKIE, httpOnly: true, secure: true, sameSite: 'Strict' as const, path: '/' };
  if (times === null) return { ...base, value: '', maxAge: 0 };
  const value = sessionToken(sessionKey(settings.operatorKey, settings.hashKey), times);
  return { ...base, value, maxAge: Math.max(0, times.expiresAt - nowSeconds) };
}

const NO_STORE = { 'cache-control': 'no-store' };

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

const secondsWords = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;

/** A wrong key or forged cookie counts against the address, a session run out does not: it was real. */
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

/** Never cached, and it sets the operator cookie. */
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
