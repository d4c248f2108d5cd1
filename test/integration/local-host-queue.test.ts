import { randomUUID } from 'node:crypto';
import { QueueClient } from '@azure/storage-queue';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { listenToQueue, type QueueListener } from '../../local/queue-listener';
import { memoryLogger } from '../../shared/core/ports/logger';
import type { QueueRegistration } from '../../host/registry';

const settings = { batchSize: 4, maxDequeueCount: 3, visibilityTimeout: 100, maxPollingInterval: 200, messageEncoding: 'base64' as const };

async function queues() {
  const connection = inject('stack').queueConnectionString;
  const name = `q-${randomUUID().slice(0, 8)}`;
  const queue = new QueueClient(connection, name);
  const poison = new QueueClient(connection, `${name}-poison`);
  await queue.createIfNotExists();
  await poison.createIfNotExists();
  return { queue, poison };
}

const registration = (queueName: string): QueueRegistration => ({
  kind: 'queue',
  name: 'test-queue',
  queueName,
  connection: 'AzureWebJobsStorage',
  make: () => async () => undefined,
});
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('the local host runs a queue trigger as the Functions host does', () => {
  let listener: QueueListener | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await listener?.stop();
    listener = undefined;
  });

  it('hands each message over base64-decoded and parsed, with its dequeue count, and deletes it once handled', async () => {
    const { queue, poison } = await queues();
    const seen: { payload: unknown; dequeueCount: unknown }[] = [];
    listener = listenToQueue(
      registration(queue.name),
      async (payload, context) => {
        seen.push({ payload, dequeueCount: context.triggerMetadata?.dequeueCount });
      },
      queue,
      poison,
      settings,
      memoryLogger(),
    );
    for (let i = 0; i < 10; i++) await queue.sendMessage(encode({ n: i }));
    await listener.drain();
    expect(seen.map((s) => (s.payload as { n: number }).n).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(seen.every((s) => s.dequeueCount === 1)).toBe(true);
    expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
  });

  it('retries a failing message and moves it to <queue>-poison after maxDequeueCount, while the rest of the queue flows', async () => {
    const { queue, poison } = await queues();
    const logger = memoryLogger();
    const handled: number[] = [];
    const attempts = new Map<number, number>();
    listener = listenToQueue(
      registration(queue.name),
      async (payload) => {
        const n = (payload as { n: number }).n;
        attempts.set(n, (attempts.get(n) ?? 0) + 1);
        if (n === 3) throw new Error('cannot be read');
        handled.push(n);
      },
      queue,
      poison,
      settings,
      logger,
    );
    for (let i = 0; i < 6; i++) await queue.sendMessage(encode({ n: i }));
    await listener.drain();
    expect(handled.sort()).toEqual([0, 1, 2, 4, 5]);
    expect(attempts.get(3)).toBe(settings.maxDequeueCount);
    const poisoned = await poison.receiveMessages({ numberOfMessages: 32 });
    expect(poisoned.receivedMessageItems.map((m) => JSON.parse(Buffer.from(m.messageText, 'base64').toString()))).toEqual([{ n: 3 }]);
    expect(listener.stats()).toMatchObject({ poisoned: 1, failures: settings.maxDequeueCount });
    expect(logger.lines.some((line) => line.includes('moved to poison') && line.includes('cannot be read'))).toBe(true);
  });

  it('retries a message that failed once and counts it handled when it succeeds, not poisoned', async () => {
    const { queue, poison } = await queues();
    let calls = 0;
    listener = listenToQueue(
      registration(queue.name),
      async (_payload, context) => {
        calls += 1;
        if (context.triggerMetadata?.dequeueCount === 1) throw new Error('store down');
      },
      queue,
      poison,
      settings,
      memoryLogger(),
    );
    await queue.sendMessage(encode({ n: 1 }));
    await listener.drain();
    expect(calls).toBe(2);
    expect((await poison.peekMessages()).peekedMessageItems).toHaveLength(0);
  });

  it('passes a payload that is not JSON as its decoded text', async () => {
    const { queue, poison } = await queues();
    const payloads: unknown[] = [];
    listener = listenToQueue(
      registration(queue.name),
      async (payload) => {
        payloads.push(payload);
      },
      queue,
      poison,
      settings,
      memoryLogger(),
    );
    await queue.sendMessage(Buffer.from('plain words').toString('base64'));
    await listener.drain();
    expect(payloads).toEqual(['plain words']);
  });

  it('fetches the next batch once the invocations running are down to newBatchThreshold, not after the whole batch', async () => {
    const { queue, poison } = await queues();
    // All queued before the listener starts, so its first poll takes a whole batch.
    for (let i = 0; i < 12; i++) await queue.sendMessage(encode({ n: i }));
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    // Every poll counted as it is made, before Azurite answers it.
    let polls = 0;
    const receiveMessages = queue.receiveMessages.bind(queue);
    queue.receiveMessages = (options) => {
      polls += 1;
      return receiveMessages(options);
    };
    // The listener's timers are fake from here: its idle waits pass when the test moves the time, never on their own.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    listener = listenToQueue(
      registration(queue.name),
      async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
      },
      queue,
      poison,
      { ...settings, newBatchThreshold: 2 },
      memoryLogger(),
    );
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((resolve) => setImmediate(resolve));
    };
    // A batch of 4 held: no other batch is fetched while more than 2 run, however long they run.
    await until(() => running === 4);
    await vi.advanceTimersByTimeAsync(10 * settings.maxPollingInterval);
    expect([running, polls]).toEqual([4, 1]);
    vi.useRealTimers();
    // Two of them end: 2 left running, so the next batch of 4 comes at once, beside them.
    releases.splice(0, 2).forEach((release) => release());
    await until(() => running === 6);
    expect(most).toBe(6);
    expect(polls).toBe(2);
    const releaseAll = setInterval(() => releases.splice(0).forEach((release) => release()), 10);
    await listener.drain();
    clearInterval(releaseAll);
    expect(listener.stats()).toMatchObject({ invocations: 12, failures: 0 });
  });
});
