import { randomUUID } from 'node:crypto';
import { toMessages, type HitsMessage, type QueuedHit } from '../shared/core/message';
import { queued } from '../test/support/hits';

/**
 * `count` hashed hits from `visitors` visitors over `days` UTC days from 2026-10-22, in time order, as the ingest
 * endpoint would queue them in requests of `perRequest` hits: every fifth visitor a scanner, one in ten hits to a
 * second store, a dozen paths.
 */
export function syntheticMessages(count: number, visitors: number, days: number, perRequest = 10): HitsMessage[] {
  const hits: QueuedHit[] = [];
  const span = days * 86_400_000;
  const start = Date.parse('2026-10-22T00:00:00Z');
  for (let n = 0; n < count; n += 1) {
    const at = new Date(start + Math.floor((n * span) / count)).toISOString();
    const visitor = (n * 7) % visitors;
    const scanner = visitor % 5 === 0;
    hits.push(
      queued(String(visitor), at, {
        network: `203.0.${visitor}.x`,
        path: scanner ? '/wp-login.php' : `/page-${n % 12}`,
        store: n % 10 === 0 ? 'shop' : 'site',
        bot: scanner,
        source: n % 17 === 0 ? 'github.com' : null,
      }),
    );
  }
  const messages: HitsMessage[] = [];
  for (let first = 0; first < hits.length; first += perRequest)
    messages.push(...toMessages(hits.slice(first, first + perRequest), randomUUID));
  return messages;
}
