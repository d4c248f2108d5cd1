import { errorAnswer, type Answer, type AnswerCookie } from '../envelope';
import type { IncomingRequest } from '../request';
import { clientAddress } from '../../../shared/core/identity/address';
import { cookieValue, OPERATOR_COOKIE, presentedKey } from '../../../shared/core/identity/operator';
import { operatorCookieValue, sameSecret } from '../../../shared/core/identity/tokens';
import type { Clock } from '../../../shared/core/ports/clock';
import { guessFailure, type Guesses, type Refused } from '../../../shared/core/guesses';
import type { AdminSessions } from '../../../shared/core/store/sessions';
import { sessionDocId } from '../../../shared/core/store/sessions';
import {
  liveTimes,
  renewsNow,
  SESSION_COOKIE,
  sessionDoc,
  sessionIdOf,
  sessionKey,
  sessionTimes,
  sessionToken,
  type SessionTimes,
} from './session';

/** The guesses are counted in the store, so every route, instance and restart slows the same guesser. */
export interface AdminAccess {
  clock: Clock;
  sessionHours: number;
  trustedProxyHops: number;
  guesses: Guesses;
  /** Kept in the store, so signing out ends a session on every instance. */
  sessions: AdminSessions;
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

/** A held session: its id, which the cookie carries, and its times. */
export interface HeldSession {
  id: string;
  times: SessionTimes;
}

/** Null makes a cookie that removes the session. */
export function sessionCookie(settings: OperatorSettings, held: HeldSession | null, nowSeconds: number): AnswerCookie {
  const base = { name: SESSION_COOKIE, httpOnly: true, secure: true, sameSite: 'Strict' as const, path: '/' };
  if (held === null) return { ...base, value: '', maxAge: 0 };
  const value = sessionToken(sessionKey(settings.operatorKey, settings.hashKey), held.id);
  return { ...base, value, maxAge: Math.max(0, held.times.expiresAt - nowSeconds) };
}

/** The session a cookie names, with its id, when the key made the cookie; null for a cookie the key did not make. */
export function presentedSession(token: string, settings: OperatorSettings): string | null {
  return sessionIdOf(token, sessionKey(settings.operatorKey, settings.hashKey));
}

const NO_STORE = { 'cache-control': 'no-store' };

export type OperatorCheck =
  | { ok: true; via: 'key'; cookies: AnswerCookie[] }
  | { ok: true; via: 'session'; times: SessionTimes; cookies: AnswerCookie[] }
  | { ok: false; why: 'none' | 'ended' | 'wrong' | 'waiting'; answer: Answer };

const unauthorized = (why: 'none' | 'ended', message: string, cookies: AnswerCookie[] = []): OperatorCheck => ({
  ok: false,
  why,
  answer: {
    ...errorAnswer({ status: 401, code: 'unauthorized', message }, { 'www-authenticate': 'Bearer', ...NO_STORE }),
    ...(cookies.length > 0 ? { cookies } : {}),
  },
});

/** The same answer whichever secret was guessed. */
export const refusedGuess = (guessed: Refused, message: string, headers: Record<string, string> = {}): Answer =>
  errorAnswer(guessFailure(guessed, message), { ...NO_STORE, ...headers });

/** A wrong key or forged cookie is a guess at the operator key; a session run out is not: it was real. */
export async function checkOperator(request: IncomingRequest, settings: OperatorSettings): Promise<OperatorCheck> {
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
  const nowSeconds = Math.floor(access.clock.now().getTime() / 1000);
  const guessed = (right: boolean) => access.guesses.compared('operator', address, right);
  const refused = (outcome: Refused, message: string, cookies: AnswerCookie[] = []) => {
    const answer = refusedGuess(outcome, message, { 'www-authenticate': 'Bearer' });
    return {
      ok: false as const,
      why: outcome.outcome === 'waiting' ? ('waiting' as const) : ('wrong' as const),
      answer: cookies.length > 0 ? { ...answer, cookies } : answer,
    };
  };
  if (key !== null) {
    const outcome = await guessed(sameSecret(key, settings.operatorKey));
    if (outcome.outcome !== 'right') return refused(outcome, 'authorization: the operator key is wrong.');
    return { ok: true, via: 'key', cookies: [] };
  }
  const removed = [sessionCookie(settings, null, nowSeconds)];
  const id = presentedSession(token!, settings);
  if (id === null) {
    const forged = await access.guesses.wrong('operator', address);
    return refused(forged, "authorization: the session cookie was not made with this app's key.", removed);
  }
  const read = await access.sessions.read(sessionDocId(id));
  const times = liveTimes(read?.doc ?? null, nowSeconds);
  if (read === null || times === null) return unauthorized('ended', 'authorization: the session has ended; sign in again', removed);
  if (!renewsNow(times, nowSeconds, access.sessionHours)) return { ok: true, via: 'session', times, cookies: [] };
  const renewed = { id, times: sessionTimes(times.signedInAt, nowSeconds, access.sessionHours) };
  // A renewal that lost a race to another, or to signing out, changes nothing: the next read sees which won.
  await access.sessions.replace(sessionDoc(id, renewed.times, nowSeconds), read.etag);
  return { ok: true, via: 'session', times: renewed.times, cookies: [sessionCookie(settings, renewed, nowSeconds)] };
}

/** Never cached, and it sets the operator cookie. */
export async function asOperator(request: IncomingRequest, settings: OperatorSettings, answer: () => Promise<Answer>): Promise<Answer> {
  const check = await checkOperator(request, settings);
  if (!check.ok) return check.answer;
  const answered = await answer();
  return {
    ...answered,
    headers: { ...NO_STORE, ...answered.headers },
    cookies: [...(answered.cookies ?? []), operatorCookie(settings.hashKey), ...check.cookies],
  };
}
