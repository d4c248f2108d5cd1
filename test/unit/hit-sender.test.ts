import { describe, expect, it } from 'vitest';
import { hitSender } from '../../shared/ingest/hit-sender';
import { MAX_MESSAGE_BYTES, readMessage, type QueuedHit } from '../../shared/core/message';
import type { HitQueue } from '../../shared/core/ports/queue';
import { memoryLogger } from '../../shared/core/ports/logger';
import { queued } from '../support/hits';
import { manualScheduler } from '../support/scheduler';

/** A queue that keeps what it is sent, answering each send as told. */
function recordingQueue(answer: () => { ok: true } | { ok: false; error: { reason: string } } = () => ({ ok: true })) {
  const sends: string[][] = [];
  const queue: HitQueue = {
    sendAll: async (messages) => {
      sends.push([...messages]);
      return answer();
    },
  };
  const hitsOf = (message: string) => {
    const read = readMessage(message);
    if (!read.ok) throw new Error(read.reason);
    return read.message.hits;
  };
  return { queue, sends, hitsOf };
}

const hit = (n: number, more: Partial<QueuedHit> = {}) => queued(String(n), '2026-10-23T10:00:00.000Z', more);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('puts the hits of requests that arrive within the window in one message, and answers each only once it is sent', async () => {
    const scheduler = manualScheduler();
    const { queue, sends, hitsOf } = recordingQueue();
    const sender = hitSender(queue, { windowMs: 25, maxHits: 100 }, { scheduler, logger: memoryLogger() });
    const answered: number[] = [];
    const answers = [1, 2, 3].map((n) => sender.enqueue([hit(n)]).then((a) => (answered.push(n), a)));
    await settle();
    expect(sends).toHaveLength(0);
    expect(answered).toEqual([]);
    expect(scheduler.pending()).toEqual([25]);
    scheduler.elapse(25);
    expect(await Promise.all(answers)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toHaveLength(1);
    expect(hitsOf(sends[0]![0]!).map((h) => h.person)).toEqual([1, 2, 3].map((n) => hit(n).person));
  });

  it('waits at most the window for a lone request', async () => {
    const scheduler = manualScheduler();
    const { queue, sends } = recordingQueue();
    const sender = hitSender(queue, { windowMs: 40, maxHits: 100 }, { scheduler, logger: memoryLogger() });
    const answer = sender.enqueue([hit(1)]);
    scheduler.elapse(39);
    await settle();
    expect(sends).toHaveLength(0);
    scheduler.elapse(1);
    expect(await answer).toEqual({ ok: true });
    expect(sends).toHaveLength(1);
    expect(scheduler.pending()).toEqual([]);
  });

  it('sends a batch at once when it reaches the most hits a message carries, and the next request opens another', async () => {
    const scheduler = manualScheduler();
    const { queue, sends, hitsOf } = recordingQueue();
    const sender = hitSender(queue, { windowMs: 25, maxHits: 3 }, { scheduler, logger: memoryLogger() });
    const first = [1, 2, 3].map((n) => sender.enqueue([hit(n)]));
    expect(await Promise.all(first)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(sends).toHaveLength(1);
    // Two hits do not fit beside the two already waiting: the open batch goes, the request opens the next.
    const a = sender.enqueue([hit(4), hit(5)]);
    const b = sender.enqueue([hit(6), hit(7)]);
    await a;
    expect(sends).toHaveLength(2);
    expect(hitsOf(sends[1]![0]!)).toHaveLength(2);
    scheduler.elapse(25);
    await b;
    expect(sends.map((s) => hitsOf(s[0]!).length)).toEqual([3, 2, 2]);
  });

  it('sends a batch before it would pass the queue message limit', async () => {
    const scheduler = manualScheduler();
    const { queue, sends } = recordingQueue();
    const sender = hitSender(queue, { windowMs: 25, maxHits: 500 }, { scheduler, logger: memoryLogger() });
    const long = (n: number) => hit(n, { path: `/${'x'.repeat(500)}` });
    const answers = Array.from({ length: 150 }, (_, n) => sender.enqueue([long(n)]));
    scheduler.elapse(25);
    await Promise.all(answers);
    expect(sends.length).toBeGreaterThan(1);
    for (const [message] of sends) expect(message!.length).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  });

  it('answers every request of a batch with its failure, logging one line for all of them, with nothing of a hit', async () => {
    const scheduler = manualScheduler();
    const logger = memoryLogger();
    const { queue, sends } = recordingQueue(() => ({ ok: false, error: { reason: 'ECONNREFUSED' } }));
    const sender = hitSender(queue, { windowMs: 25, maxHits: 100 }, { scheduler, logger });
    const answers = [1, 2, 3, 4].map((n) => sender.enqueue([hit(n)]));
    scheduler.elapse(25);
    for (const answer of await Promise.all(answers)) expect(answer).toEqual({ ok: false, error: { reason: 'ECONNREFUSED' } });
    expect(sends).toHaveLength(1);
    expect(logger.lines).toHaveLength(1);
    expect(JSON.parse(logger.lines[0]!)).toMatchObject({ level: 'warn', requests: 4, hits: 4, messages: 1 });
    expect(logger.lines[0]).not.toContain(hit(1).person!);
  });

  it('answers a failure too when the queue throws instead of answering', async () => {
    const scheduler = manualScheduler();
    const queue: HitQueue = { sendAll: () => Promise.reject(new Error('socket hang up')) };
    const sender = hitSender(queue, { windowMs: 25, maxHits: 100 }, { scheduler, logger: memoryLogger() });
    const answer = sender.enqueue([hit(1)]);
    scheduler.elapse(25);
    expect(await answer).toMatchObject({ ok: false });
  });

  it('lets a request that alone fills a message bypass the batch, split into several messages as before', async () => {
    const scheduler = manualScheduler();
    const { queue, sends, hitsOf } = recordingQueue();
    const sender = hitSender(queue, { windowMs: 25, maxHits: 100 }, { scheduler, logger: memoryLogger() });
    const waiting = sender.enqueue([hit(0)]);
    const big = Array.from({ length: 250 }, (_, n) => hit(n + 1));
    expect(await sender.enqueue(big)).toEqual({ ok: true });
    // The big request went alone, as one call of three messages (the adapter sends them hidden, then shows them).
    expect(sends).toHaveLength(1);
    expect(sends[0]!.map((m) => hitsOf(m).length)).toEqual([100, 100, 50]);
    // The batch it passed by is still open, and goes when its window ends.
    scheduler.elapse(25);
    expect(await waiting).toEqual({ ok: true });
    expect(sends).toHaveLength(2);
    expect(hitsOf(sends[1]![0]!)).toHaveLength(1);
  });

  it('sends each request alone with a window of 0', async () => {
    const scheduler = manualScheduler();
    const { queue, sends } = recordingQueue();
    const sender = hitSender(queue, { windowMs: 0, maxHits: 100 }, { scheduler, logger: memoryLogger() });
    await Promise.all([sender.enqueue([hit(1)]), sender.enqueue([hit(2)])]);
    expect(sends).toHaveLength(2);
    expect(scheduler.pending()).toEqual([]);
  });

  it('gives each message its own id', async () => {
    const scheduler = manualScheduler();
    const { queue, sends } = recordingQueue();
    const sender = hitSender(queue, { windowMs: 25, maxHits: 2 }, { scheduler, logger: memoryLogger() });
    await Promise.all([1, 2, 3, 4].map((n) => sender.enqueue([hit(n)])));
    const ids = sends.map(([m]) => {
      const read = readMessage(m);
      return read.ok ? read.message.id : null;
    });
    expect(new Set(ids).size).toBe(2);
  });
});

describe('group commit while a batch is on its way', () => {
  it('holds the next batch past its window until the one before is on the queue, so a slow queue fills messages fuller', async () => {
    const scheduler = manualScheduler();
    const hitsSent: number[] = [];
    let release: (() => void) | null = null;
    const queue: HitQueue = {
      sendAll: (messages) => {
        const read = readMessage(messages[0]);
        hitsSent.push(read.ok ? read.message.hits.length : -1);
        return new Promise((resolve) => (release = () => resolve({ ok: true })));
      },
    };
    const sender = hitSender(queue, { windowMs: 25, maxHits: 100 }, { scheduler, logger: memoryLogger() });
    const first = sender.enqueue([hit(1)]);
    scheduler.elapse(25);
    expect(hitsSent).toEqual([1]);
    const next = [2, 3, 4].map((n) => sender.enqueue([hit(n)]));
    scheduler.elapse(25);
    await settle();
    // Its window is over, but the first batch is still on its way: the second waits, and takes more meanwhile.
    expect(hitsSent).toEqual([1]);
    const later = sender.enqueue([hit(5)]);
    release!();
    expect(await first).toEqual({ ok: true });
    await settle();
    expect(hitsSent).toEqual([1, 4]);
    release!();
    expect(await Promise.all([...next, later])).toEqual(Array(4).fill({ ok: true }));
  });
});
