import { describe, expect, it } from 'vitest';
import { encodeWritten, hitSender, sendAlone } from '../../shared/ingest/hit-sender';
import { encodeMessage, toMessages, type QueuedHit } from '../../shared/core/message';
import type { HitQueue } from '../../shared/core/ports/queue';
import { memoryLogger } from '../../shared/core/ports/logger';
import { queued } from '../support/hits';
import { manualScheduler } from '../support/scheduler';

// The sender writes each hit once (one JSON.stringify of a request's hits) and make the message of that text; what goes
// on the queue must be, byte for byte, what encodeMessage and toMessages make of the same hits.

function recordingQueue() {
  const sends: string[][] = [];
  const queue: HitQueue = {
    sendAll: async (messages) => {
      sends.push([...messages]);
      return { ok: true };
    },
  };
  return { queue, sends };
}

/** Ids in order, the same for the sender and for the reference. */
const ids = () => {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String((n += 1)).padStart(12, '0')}`;
};

const hit = (n: number, more: Partial<QueuedHit> = {}): QueuedHit =>
  queued(`p${n}`, '2026-10-23T10:00:00.000Z', {
    path: `/articles/${n}`,
    source: n % 2 === 0 ? 'www.linkedin.com' : null,
    reason: n % 3 === 0 ? 'agent' : null,
    country: 'DE',
    browser: 'firefox',
    system: 'linux',
    device: 'desktop',
    campaign: n % 5 === 0 ? { source: 'newsletter', medium: null, campaign: 'été-2026' } : null,
    ...more,
  });

describe('the message written once', () => {
  it('is what encodeMessage writes of the same id and hits', () => {
    const hits = [hit(1), hit(2, { path: '/caf%C3%A9/é/😀', event: 'signup', props: { plan: 'pro' } }), hit(3)];
    const id = '3b241101-e2bb-4255-8caf-4136c566a962';
    expect(encodeWritten(id, JSON.stringify(hits).slice(1, -1))).toBe(encodeMessage({ v: 1, id, hits }));
  });

  it('a request alone: one message when its hits fit one, split as toMessages splits them when not', async () => {
    for (const [count, long] of [
      [1, 0],
      [100, 0],
      [100, 500],
      [250, 0],
      [400, 500],
    ] as const) {
      const hits = Array.from({ length: count }, (_, n) => hit(n, long === 0 ? {} : { path: `/${'é'.repeat(long / 2)}${n}` }));
      const { queue, sends } = recordingQueue();
      await sendAlone(queue, 100, { logger: memoryLogger(), newId: ids() }).enqueue(hits);
      expect(sends, `${count} hits`).toEqual([toMessages(hits, ids(), 100).map(encodeMessage)]);
    }
  });

  it('requests that share a batch: the message of all their hits, in order', async () => {
    const scheduler = manualScheduler();
    const { queue, sends } = recordingQueue();
    const sender = hitSender(queue, { windowMs: 25, maxHits: 100 }, { scheduler, logger: memoryLogger(), newId: ids() });
    const requests = [[hit(1)], [hit(2), hit(3, { path: '/ünïcode' })], [hit(4)]];
    const answers = requests.map((hits) => sender.enqueue(hits));
    expect(sender.waiting()).toEqual({ requests: 3, hits: 4 });
    scheduler.elapse(25);
    await Promise.all(answers);
    expect(sends).toEqual([[encodeMessage({ v: 1, id: ids()(), hits: requests.flat() })]]);
  });

  it('a batch that reaches the most hits a message carries goes at once, as its own message', async () => {
    const scheduler = manualScheduler();
    const { queue, sends } = recordingQueue();
    const sender = hitSender(queue, { windowMs: 25, maxHits: 3 }, { scheduler, logger: memoryLogger(), newId: ids() });
    const first = [[hit(1)], [hit(2), hit(3)]];
    await Promise.all(first.map((hits) => sender.enqueue(hits)));
    expect(sends).toEqual([[encodeMessage({ v: 1, id: ids()(), hits: first.flat() })]]);
  });
});
