import { createHmac, randomUUID } from 'node:crypto';
import type { AnswerCookie } from '../../core/cookie';
import { cookieValue } from '../../core/identity/operator';

export const VISITOR_COOKIE = 'visitor_id';

/** Two years, in seconds. */
export const VISITOR_COOKIE_MAX_AGE = 730 * 86_400;

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What a request's Cookie header says of the visitor cookie: none, a well-formed UUID v4, or something else (refused). */
export type PresentedCookie = { kind: 'absent' } | { kind: 'uuid'; uuid: string } | { kind: 'malformed' };

export function presentedCookie(cookieHeader: string | null): PresentedCookie {
  const value = cookieValue(cookieHeader, VISITOR_COOKIE);
  if (value === null || value === '') return { kind: 'absent' };
  const uuid = value.toLowerCase();
  return UUID_V4.test(uuid) ? { kind: 'uuid', uuid } : { kind: 'malformed' };
}

/** The UUID itself is never kept. */
export function visitorCookieHash(key: string, uuid: string): string {
  return createHmac('sha256', key).update(`visitor-cookie|${uuid}`, 'utf8').digest().subarray(0, 16).toString('hex');
}

export function newVisitorCookie(newUuid: () => string = randomUUID): AnswerCookie {
  return {
    name: VISITOR_COOKIE,
    value: newUuid(),
    maxAge: VISITOR_COOKIE_MAX_AGE,
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
    path: '/',
  };
}
