import { createHmac } from 'node:crypto';
import { sameSecret } from '../../../shared/core/identity/tokens';

/**
 * The Admin session's cookie. `__Host-` makes the browser refuse it unless it is Secure, has Path=/ and no Domain, so
 * no other host (a sibling subdomain) can set or shadow it.
 */
export const SESSION_COOKIE = '__Host-headcount_admin';

/** However often it is used, a session ends this long after signing in: the key is then asked for again. */
export const SESSION_LONGEST_SECONDS = 7 * 86_400;

/** A session used again once it is this old is renewed (so a dashboard left open keeps its session, without a cookie on every read). */
export const SESSION_RENEW_AFTER_SECONDS = 5 * 60;

/** A session's two times, in whole seconds since the epoch: when the key was given, and when the session ends unless used. */
export interface SessionTimes {
  signedInAt: number;
  expiresAt: number;
}

/** What a session cookie's value turned out to be. */
export type SessionCheck = { state: 'valid'; times: SessionTimes } | { state: 'ended' } | { state: 'forged' };

const VERSION = 'v1';
const SHAPE = /^v1\.(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * The key sessions are signed with: a keyed hash of the operator key under the hash key, so rotating either ends every
 * session, and the operator key itself is never what a cookie is checked against.
 */
export function sessionKey(operatorKey: string, hashKey: string): string {
  return createHmac('sha256', hashKey).update(`admin-session|${operatorKey}`, 'utf8').digest('base64url');
}

const macOf = (key: string, body: string) => createHmac('sha256', key).update(body, 'utf8').digest('base64url');

/** A session token: `v1.<signed in>.<expires>.<mac>`, the times in seconds, the MAC over both under the session key. */
export function sessionToken(key: string, times: SessionTimes): string {
  const body = `${VERSION}.${times.signedInAt}.${times.expiresAt}`;
  return `${body}.${macOf(key, body)}`;
}

/**
 * Reads a session token at `nowSeconds`: `valid` with its times, `ended` when it was made with the key but has run
 * out (unused for its hours, or older than SESSION_LONGEST_SECONDS), `forged` for anything the key did not make.
 */
export function checkSession(token: string, key: string, nowSeconds: number): SessionCheck {
  const match = SHAPE.exec(token);
  if (!match) return { state: 'forged' };
  const [, signedIn, expires, mac] = match;
  if (!sameSecret(mac, macOf(key, `${VERSION}.${signedIn}.${expires}`))) return { state: 'forged' };
  const times = { signedInAt: Number(signedIn), expiresAt: Number(expires) };
  if (times.expiresAt <= nowSeconds || nowSeconds - times.signedInAt >= SESSION_LONGEST_SECONDS) return { state: 'ended' };
  return { state: 'valid', times };
}

/** A new session's times: `hours` from now, never past the longest a session lasts from its signing in. */
export function sessionTimes(signedInAt: number, nowSeconds: number, hours: number): SessionTimes {
  return { signedInAt, expiresAt: Math.min(nowSeconds + hours * 3600, signedInAt + SESSION_LONGEST_SECONDS) };
}

/** Whether a valid session used now is renewed: once it is SESSION_RENEW_AFTER_SECONDS old, and while it can still grow. */
export function renewsNow(times: SessionTimes, nowSeconds: number, hours: number): boolean {
  const issuedAt = times.expiresAt - hours * 3600;
  return (
    nowSeconds - issuedAt >= SESSION_RENEW_AFTER_SECONDS && sessionTimes(times.signedInAt, nowSeconds, hours).expiresAt > times.expiresAt
  );
}
