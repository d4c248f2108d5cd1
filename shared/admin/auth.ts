import { errorAnswer, type Answer, type AnswerCookie } from '../http/envelope';
import type { IncomingRequest } from '../http/request';
import { hasOperatorKey, OPERATOR_COOKIE } from '../identity/operator';
import { operatorCookieValue } from '../identity/tokens';

/** What admin routes check a request against: the operator key, and the hash key the operator cookie is made with. */
export interface OperatorSettings {
  operatorKey: string;
  hashKey: string;
}

/** The operator settings from the app's settings: one place, so every admin route checks the same key. */
export const operatorSettings = (settings: { OPERATOR_KEY: string; HASH_KEY: string }): OperatorSettings => ({
  operatorKey: settings.OPERATOR_KEY,
  hashKey: settings.HASH_KEY,
});

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

/**
 * An admin route: 401 in the error envelope without the operator key (`Authorization: Bearer …` or `x-operator-key`,
 * compared in constant time); otherwise the route's answer, not cached, with the operator cookie set.
 */
export async function asOperator(request: IncomingRequest, settings: OperatorSettings, answer: () => Promise<Answer>): Promise<Answer> {
  if (!hasOperatorKey((name) => request.header(name), settings.operatorKey)) {
    return errorAnswer(
      {
        status: 401,
        code: 'unauthorized',
        message: 'authorization: the operator key is missing or wrong (Authorization: Bearer <key> or x-operator-key)',
      },
      { 'www-authenticate': 'Bearer', 'cache-control': 'no-store' },
    );
  }
  const answered = await answer();
  return {
    ...answered,
    headers: { 'cache-control': 'no-store', ...answered.headers },
    cookies: [...(answered.cookies ?? []), operatorCookie(settings.hashKey)],
  };
}
