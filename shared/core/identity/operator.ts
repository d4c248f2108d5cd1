import { operatorCookieValue, sameSecret } from './tokens';

export const OPERATOR_COOKIE = 'headcount_operator';

/** `Authorization: Bearer …` or `x-operator-key`. */
export function presentedKey(header: (name: string) => string | null): string | null {
  const bearer = /^Bearer\s+(.+)$/i.exec(header('authorization') ?? '');
  return bearer?.[1]?.trim() ?? header('x-operator-key');
}

export function cookieValue(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The cookie is a keyed hash only the key's holder can make. */
export function hasOperatorCookie(cookieHeader: string | null, hashKey: string): boolean {
  return sameSecret(cookieValue(cookieHeader, OPERATOR_COOKIE), operatorCookieValue(hashKey));
}

/** A site may forward the operator key or the operator cookie. */
export function isOperatorToken(value: string | null | undefined, operatorKey: string, hashKey: string): boolean {
  if (!value) return false;
  return sameSecret(value, operatorKey) || sameSecret(value, operatorCookieValue(hashKey));
}
