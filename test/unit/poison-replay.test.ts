import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeMessage } from '../../shared/core/message';
import { replayEveryPoison, replayPoison } from '../../shared/keep/replay';
import { memoryHitQueue, memoryPoisonQueue, memoryReplayLedger } from '../../adapters/memory-poison';
import type { HitQueue } from '../../shared/core/ports/queue';
import type { PoisonQueue } from '../../shared/core/ports/poison';
import { queued } from '../support/hits';

const message = () => encodeMessage({ v: 1, id: randomUUID(), hits: [queued('ann', '2026-10-23T10:00:00.000Z')] });
const idOf = (text: string) => (JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as { id: string }).id;

function parts(texts: string[], replayMax = 3) {
  const poison = memoryPoisonQueue(texts);
  const hits = memoryHitQueue();
  const ledger = memoryReplayLedger();
  return { poison, hits, ledger, deps: { poison, queue: hits, ledger, replayMax } };
}

describe('replaying poison', () => {
  it('moves readable messages back to hits as they were, and leaves unreadable ones in poison', async () => {
    const good = message();
    const { poison, hits, ledger, deps } = parts([
      good,
      Buffer.from('not json').toString('base64'),
      encodeMessage({ v: 1, id: randomUUID(), hits: [] } as never),
    ]);
    const outcome = await replayPoison(deps);
    expect(outcome).toMatchObject({ moved: 1, unreadable: 2, overBound: 0, failed: 0, stopped: null });
    expect(hits.sent).toEqual([good]);
    expect(poison.texts()).toHaveLength(2);
    expect(ledger.counts.get(idOf(good))).toBe(1);
  });

  it('puts a message back at most replayMax times, then leaves it in poison', async () => {
    const text = message();
    const { poison, hits, deps } = parts([text], 2);
    for (let run = 0; run < 4; run++) {
      await replayPoison(deps);
      // It failed again and went back to poison, as a long outage would do.
      if (hits.sent.length > run) poison.add(text);
    }
    expect(hits.sent).toEqual([text, text]);
    expect(poison.texts()).toEqual([text]);
    expect((await replayPoison(deps)).overBound).toBe(1);
  });

  it('replays nothing with a bound of 0', async () => {
    const { hits, deps } = parts([message()], 0);
    expect(await replayPoison(deps)).toMatchObject({ moved: 0, overBound: 1 });
    expect(hits.sent).toEqual([]);
  });

  it('leaves the message in poison when the hits queue cannot take it, with the attempt counted', async () => {
    const text = message();
    const { poison, ledger, deps } = parts([text]);
    const down: HitQueue = { sendAll: async () => ({ ok: false, error: { reason: 'ECONNREFUSED' } }) };
    expect(await replayPoison({ ...deps, queue: down })).toMatchObject({ moved: 0, failed: 1 });
    expect(poison.texts()).toEqual([text]);
    expect(ledger.counts.get(idOf(text))).toBe(1);
  });

  it('leaves the message in poison when the ledger cannot count', async () => {
    const text = message();
    const { poison, hits, deps } = parts([text]);
    const ledger = {
      read: async () => ({ ok: false as const, error: { reason: 'no blob service' } }),
      record: async () => ({ ok: true as const }),
    };
    expect(await replayPoison({ ...deps, ledger })).toMatchObject({ failed: 1 });
    expect(hits.sent).toEqual([]);
    expect(poison.texts()).toEqual([text]);
  });

  it('sees each message once per run, however many are left', async () => {
    const texts = Array.from({ length: 70 }, () => Buffer.from(`junk ${randomUUID()}`).toString('base64'));
    const { poison, deps } = parts(texts);
    expect((await replayPoison(deps)).unreadable).toBe(70);
    expect(poison.texts()).toHaveLength(70);
  });
});

describe("replaying every queue's poison (replay-poison's run)", () => {
  it('puts each message back on the queue it was poisoned from, through one ledger and bound, and sums the outcomes', async () => {
    const live = message();
    const imported = message();
    const hitsPoison = memoryPoisonQueue([live, Buffer.from('not json').toString('base64')]);
    const importsPoison = memoryPoisonQueue([imported]);
    const hits = memoryHitQueue();
    const imports = memoryHitQueue();
    const ledger = memoryReplayLedger();
    const queues = [
      { name: 'hits', poison: hitsPoison, queue: hits },
      { name: 'imports', poison: importsPoison, queue: imports },
    ];
    const run = await replayEveryPoison({ queues, ledger, replayMax: 1 });
    expect(hits.sent).toEqual([live]);
    expect(imports.sent).toEqual([imported]);
    expect(run.total).toEqual({ moved: 2, unreadable: 1, overBound: 0, failed: 0, notRemoved: 0, stopped: null });
    expect(run.queues.hits).toMatchObject({ moved: 1, unreadable: 1 });
    expect(run.queues.imports).toMatchObject({ moved: 1, unreadable: 0 });
    expect([ledger.counts.get(idOf(live)), ledger.counts.get(idOf(imported))]).toEqual([1, 1]);
    // Poisoned again: the bound holds for the imports queue as for hits.
    importsPoison.add(imported);
    expect((await replayEveryPoison({ queues, ledger, replayMax: 1 })).queues.imports).toMatchObject({ moved: 0, overBound: 1 });
    expect(imports.sent).toEqual([imported]);
  });

  it('goes on to the next queue when one poison queue cannot be read, and names it', async () => {
    const live = message();
    const gone: PoisonQueue = {
      take: async () => ({ ok: false, error: { reason: 'QueueNotFound' } }),
      remove: async () => ({ ok: true }),
      release: async () => ({ ok: true }),
    };
    const hits = memoryHitQueue();
    const run = await replayEveryPoison({
      queues: [
        { name: 'imports', poison: gone, queue: memoryHitQueue() },
        { name: 'hits', poison: memoryPoisonQueue([live]), queue: hits },
      ],
      ledger: memoryReplayLedger(),
      replayMax: 3,
    });
    expect(hits.sent).toEqual([live]);
    expect(run.total).toMatchObject({ moved: 1, stopped: 'imports: QueueNotFound' });
    expect(run.queues.hits!.stopped).toBeNull();
  });
});
