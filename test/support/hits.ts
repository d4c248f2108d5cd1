import { randomUUID } from 'node:crypto';
import { toMessages, type HitsMessage, type QueuedHit } from '../../shared/core/message';

/** A 32-hex stand-in for a hash: the label's first 16 characters (padded with dots) in hex, so a fixture's hash reads back as its label. */
export const labelHex = (label: string) => Buffer.from(label.padEnd(16, '.')).subarray(0, 16).toString('hex');

/** The person hash `queued` gives a person's name. */
export const personHash = (person: string) => labelHex(`p${person}`);

/** A hashed hit as the queue carries it, by a person's name (null: the site itself); the keepers never read the hashes back. */
export function queued(person: string | null, at: string, more: Partial<QueuedHit> = {}): QueuedHit {
  return {
    at,
    token: labelHex(`t${person ?? 'self'}${at.slice(0, 10)}`),
    person: person === null ? null : personHash(person),
    network: '203.0.113.x',
    path: '/',
    served_by: 'site',
    bot: false,
    self: person === null,
    source: null,
    subject: null,
    ...more,
  };
}

/**
 * `count` hits from `visitors` visitors over `days` days from 2026-10-22, queued in requests of `perRequest`: every fifth
 * visitor a scanner, one hit in ten to a second store.
 */
export function syntheticMessages(count: number, visitors: number, days: number, perRequest = 10): HitsMessage[] {
  const start = Date.parse('2026-10-22T00:00:00Z');
  const hits = Array.from({ length: count }, (_, n) => {
    const visitor = (n * 7) % visitors;
    const scanner = visitor % 5 === 0;
    return queued(String(visitor), new Date(start + Math.floor((n * days * 86_400_000) / count)).toISOString(), {
      network: `203.0.${visitor}.x`,
      path: scanner ? '/wp-login.php' : `/page-${n % 12}`,
      served_by: n % 10 === 0 ? 'shop' : 'site',
      bot: scanner,
      source: n % 17 === 0 ? 'github.com' : null,
    });
  });
  const messages: HitsMessage[] = [];
  for (let first = 0; first < hits.length; first += perRequest)
    messages.push(...toMessages(hits.slice(first, first + perRequest), randomUUID));
  return messages;
}
