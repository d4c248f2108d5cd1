import { describe, expect, it } from 'vitest';
import { OPERATOR_COOKIE, cookieValue, hasOperatorCookie, isOperatorToken, presentedKey } from '../../shared/core/identity/operator';
import { operatorCookieValue, sameSecret } from '../../shared/core/identity/tokens';

const HASH_KEY = 'test-hash-key-0123456789abcdef';
const OPERATOR_KEY = 'test-operator-key-0123456789';
const headers = (values: Record<string, string>) => (name: string) => values[name.toLowerCase()] ?? null;

describe('the operator key', () => {
  it('is read from Authorization: Bearer or x-operator-key', () => {
    expect(presentedKey(headers({ authorization: `Bearer ${OPERATOR_KEY}` }))).toBe(OPERATOR_KEY);
    expect(presentedKey(headers({ authorization: `bearer   ${OPERATOR_KEY}` }))).toBe(OPERATOR_KEY);
    expect(presentedKey(headers({ 'x-operator-key': OPERATOR_KEY }))).toBe(OPERATOR_KEY);
    expect(presentedKey(headers({}))).toBeNull();
  });

  it('marks a request as the operator only when it is the right key', () => {
    expect(sameSecret(presentedKey(headers({ authorization: `Bearer ${OPERATOR_KEY}` })), OPERATOR_KEY)).toBe(true);
    expect(sameSecret(presentedKey(headers({ 'x-operator-key': OPERATOR_KEY })), OPERATOR_KEY)).toBe(true);
    expect(sameSecret(presentedKey(headers({ 'x-operator-key': `${OPERATOR_KEY}x` })), OPERATOR_KEY)).toBe(false);
    expect(sameSecret(presentedKey(headers({ authorization: `Basic ${OPERATOR_KEY}` })), OPERATOR_KEY)).toBe(false);
    expect(sameSecret(presentedKey(headers({})), OPERATOR_KEY)).toBe(false);
  });
});

describe('the operator cookie', () => {
  it('is a keyed hash: the same for one key, different for another, never the key itself', () => {
    const value = operatorCookieValue(HASH_KEY);
    expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(operatorCookieValue(HASH_KEY)).toBe(value);
    expect(operatorCookieValue('another-hash-key-0123456789abc')).not.toBe(value);
    expect(value).not.toContain(HASH_KEY);
  });

  it('is read from a Cookie header among other cookies', () => {
    const value = operatorCookieValue(HASH_KEY);
    expect(cookieValue(`a=1; ${OPERATOR_COOKIE}=${value}; b=2`, OPERATOR_COOKIE)).toBe(value);
    expect(cookieValue('a=1; b=2', OPERATOR_COOKIE)).toBeNull();
    expect(cookieValue(null, OPERATOR_COOKIE)).toBeNull();
    expect(cookieValue(`x${OPERATOR_COOKIE}=${value}`, OPERATOR_COOKIE)).toBeNull();
  });

  it('marks a request as the operator only with the value the key makes', () => {
    expect(hasOperatorCookie(`${OPERATOR_COOKIE}=${operatorCookieValue(HASH_KEY)}`, HASH_KEY)).toBe(true);
    expect(hasOperatorCookie(`${OPERATOR_COOKIE}=${operatorCookieValue('another-hash-key-0123456789abc')}`, HASH_KEY)).toBe(false);
    expect(hasOperatorCookie(`${OPERATOR_COOKIE}=1`, HASH_KEY)).toBe(false);
    expect(hasOperatorCookie(null, HASH_KEY)).toBe(false);
  });
});

describe('a value a site forwarded in a hit', () => {
  it('is the operator when it is the operator key or the operator cookie, and nothing else', () => {
    expect(isOperatorToken(OPERATOR_KEY, OPERATOR_KEY, HASH_KEY)).toBe(true);
    expect(isOperatorToken(operatorCookieValue(HASH_KEY), OPERATOR_KEY, HASH_KEY)).toBe(true);
    expect(isOperatorToken(HASH_KEY, OPERATOR_KEY, HASH_KEY)).toBe(false);
    expect(isOperatorToken('', OPERATOR_KEY, HASH_KEY)).toBe(false);
    expect(isOperatorToken(null, OPERATOR_KEY, HASH_KEY)).toBe(false);
    expect(isOperatorToken(undefined, OPERATOR_KEY, HASH_KEY)).toBe(false);
  });

  it('is compared as a whole secret: a prefix or a longer value is not the key', () => {
    expect(sameSecret(OPERATOR_KEY.slice(0, -1), OPERATOR_KEY)).toBe(false);
    expect(sameSecret(`${OPERATOR_KEY}0`, OPERATOR_KEY)).toBe(false);
    expect(sameSecret(OPERATOR_KEY, OPERATOR_KEY)).toBe(true);
  });
});
