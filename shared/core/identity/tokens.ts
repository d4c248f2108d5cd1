import { createHmac, timingSafeEqual } from 'node:crypto';

const hex16 = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest().subarray(0, 16).toString('hex');

const twoDigits = (value: number) => (value < 10 ? `0${value}` : `${value}`);
const threeDigits = (value: number) => (value < 10 ? `00${value}` : value < 100 ? `0${value}` : `${value}`);

/** Whether toISOString writes the instant's year as four digits from 1000 (and so as utcDay and isoInstant do). */
const fourDigitYear = (year: number) => year >= 1000 && year <= 9999;

/** The UTC day of an instant as yyyy-MM-dd (what toISOString begins with, written without it: it runs on every hit). */
export function utcDay(at: Date): string {
  const year = at.getUTCFullYear();
  // Another year (or an invalid date) is written as toISOString writes it (or throws as it does).
  if (!fourDigitYear(year)) return at.toISOString().slice(0, 10);
  return `${year}-${twoDigits(at.getUTCMonth() + 1)}-${twoDigits(at.getUTCDate())}`;
}

/** The instant exactly as toISOString writes it (yyyy-MM-ddTHH:mm:ss.sssZ), in a third of its time: it runs on every hit. */
export function isoInstant(at: Date): string {
  const year = at.getUTCFullYear();
  if (!fourDigitYear(year)) return at.toISOString();
  const time = `${twoDigits(at.getUTCHours())}:${twoDigits(at.getUTCMinutes())}:${twoDigits(at.getUTCSeconds())}.${threeDigits(at.getUTCMilliseconds())}`;
  return `${year}-${twoDigits(at.getUTCMonth() + 1)}-${twoDigits(at.getUTCDate())}T${time}Z`;
}

/** Groups one address's requests within a UTC day and rotates daily: HMAC(key, "<day>|" + address), 32 hex. */
export function dailyToken(key: string, address: string, at: Date): string {
  return hex16(key, `${utcDay(at)}|${address}`);
}

/** One visitor for good: HMAC(key, "person|" + address + "|" + agentFamily), 32 hex; it never rotates. */
export function personHash(key: string, address: string, agentFamily: string): string {
  return hex16(key, `person|${address}|${agentFamily}`);
}

/** The value of the operator cookie: a keyed hash of a fixed label that nobody without the key can make. */
export function operatorCookieValue(key: string): string {
  return createHmac('sha256', key).update('operator|headcount', 'utf8').digest('hex');
}

/** Compares two secrets in constant time (for equal lengths; different lengths are unequal without a early exit on content). */
export function sameSecret(given: string | null | undefined, expected: string): boolean {
  if (given === null || given === undefined) return false;
  const a = createHmac('sha256', 'compare').update(given, 'utf8').digest();
  const b = createHmac('sha256', 'compare').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
