import { createHmac } from 'node:crypto';
import { sameSecret } from '../../../shared/core/identity/tokens';

/** `__Host-` means no other host, not even a sibling subdomain, can set or shadow it. */
export const SESSION_COOKIE = '__Host-headcount_admin';

/** However often it is used, a session ends this long after signing in. */
export const SESSION_LONGEST_SECONDS = 7 * 86_400;

/** Renewing only past this age keeps an open dashboard signed in without a cookie on every read. */
export const SESSION_RENEW_AFTER_SECONDS = 5 * 60;

/** Whole seconds since the epoch. */
export interface SessionTimes {
  signedInAt: number;
  expiresAt: number;
}

export type SessionCheck = { state: 'valid'; times: SessionTimes } | { state: 'ended' } | { state: 'forged' };

const VERSION = 'v1';
const SHAPE = /^v1\.(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** Rotating either key ends every session, and a cookie is never checked against the operator key itself. */
export function sessionKey(operatorKey: string, hashKey: string): string {
  return createHmac('sha256', hashKey).update(`admin-session|${operatorKey}`, 'utf8').digest('base64url');
}

const macOf = (key: string, body: string) => createHmac('sha256', key).update(body, 'utf8').digest('base64url');

/** `v1.<signed in>.<expires>.<mac>`, times in seconds. */
export function sessionToken(key: string, times: SessionTimes): string {
  const body = `${VERSION}.${times.signedInAt}.${times.expiresAt}`;
  return `${body}.${macOf(key, body)}`;
}

/** `ended` is a real session run out, `forged` anything the key did not make. */
export function checkSession(token: string, key: string, nowSeconds: number): SessionCheck {
  const match = SHAPE.exec(token);
  if (!match) return { state: 'forged' };
  const [, signedIn, expires, mac] = match;
  if (!sameSecret(mac, macOf(key, `${VERSION}.${signedIn}.${expires}`))) return { state: 'forged' };
  const times = { signedInAt: Number(signedIn), expiresAt: Number(expires) };
  if (times.expiresAt <= nowSeconds || nowSeconds - times.signedInAt >= SESSION_LONGEST_SECONDS) return { state: 'ended' };
  return { state: 'valid', times };
}

/** Never past SESSION_LONGEST_SECONDS from signing in. */
export function sessionTimes(signedInAt: number, nowSeconds: number, hours: number): SessionTimes {
  return { signedInAt, expiresAt: Math.min(nowSeconds + hours * 3600, signedInAt + SESSION_LONGEST_SECONDS) };
}

export function renewsNow(times: SessionTimes, nowSeconds: number, hours: number): boolean {
  const issuedAt = times.expiresAt - hours * 3600;
  return (
    nowSeconds - issuedAt >= SESSION_RENEW_AFTER_SECONDS && sessionTimes(times.signedInAt, nowSeconds, hours).expiresAt > times.expiresAt
  );
}
