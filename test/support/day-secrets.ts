import { createHmac } from 'node:crypto';

/** Each day's secret made from the day, so a test's tokens are the same every run; the app makes them at random. */
export const testSecret = (day: string): string => createHmac('sha256', 'test-day-secrets').update(day, 'utf8').digest('hex');
