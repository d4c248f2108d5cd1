import { createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from '../../../shared/core/identity/tokens';
import type { AdminSession } from '../../../shared/core/store/sessions';
import { SESSIONS_PK, sessionDocId } from '../../../shared/core/store/sessions';

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

const VERSION = 'v2';
const SHAPE = /^v2\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** Rotating either key ends every session, and a cookie is never checked against the operator key itself. */
export function sessionKey(operatorKey: string, hashKey: string): string {
  return createHmac('sha256', hashKey).update(`admin-session|${operatorKey}`, 'utf8').digest('base64url');
}

const macOf = (key: string, body: string) => createHmac('sha256', key).update(body, 'utf8').digest('base64url');

/** 128 random bits naming the session kept in the store. */
export const newSessionId = (): string => randomBytes(16).toString('base64url');

/** `v2.<id>.<mac>`: the store says whether the session still holds, the MAC that the app's key made it. */
export function sessionToken(key: string, sessionId: string): string {
  const body = `${VERSION}.${sessionId}`;
  return `${body}.${macOf(key, body)}`;
}

/** The session's id, or null for anything the key did not make. */
export function sessionIdOf(token: string, key: string): string | null {
  const match = SHAPE.exec(token);
  if (!match) return null;
  const [, id, mac] = match;
  return sameSecret(mac, macOf(key, `${VERSION}.${id}`)) ? id! : null;
}

/** Null once it has ended: signed out, run out unused, or past SESSION_LONGEST_SECONDS. */
export function liveTimes(session: AdminSession | null, nowSeconds: number): SessionTimes | null {
  if (session === null) return null;
  const times = { signedInAt: session.signed_in_at, expiresAt: session.expires_at };
  if (times.expiresAt <= nowSeconds || nowSeconds - times.signedInAt >= SESSION_LONGEST_SECONDS) return null;
  return times;
}

/** The session's document: deleted by Cosmos DB once it can no longer be used. */
export function sessionDoc(sessionId: string, times: SessionTimes, nowSeconds: number): AdminSession {
  return {
    id: sessionDocId(sessionId),
    pk: SESSIONS_PK,
    kind: 'admin-session',
    signed_in_at: times.signedInAt,
    expires_at: times.expiresAt,
    ttl: Math.max(1, times.expiresAt - nowSeconds),
  };
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
