import { QueueClient } from '@azure/storage-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootFromEnvironment } from '../../host/composition';
import { startLocalHost, type LocalHost } from '../../local/host';
import { azureHitQueue } from '../../adapters/azure-hit-queue';
import { encodeMessage, toMessages, type QueuedHit } from '../../shared/core/message';
import { testEnv } from '../support/env';
import { containerOf } from '../support/cosmos';
import { AGENTS, post } from '../support/http';
import { plainProxy } from '../support/proxy';
import { queueAt, serviceUrl } from '../../local/services';

const hit = (i: number): QueuedHit => ({
  at: '2026-10-23T10:00:00.000Z',
  token: 'a'.repeat(32),
  person: 'b'.repeat(32),
  network: '203.0.113.x',
  path: `/p/${'x'.repeat(400)}/${i}`,
  served_by: 'site',
  bot: false,
  self: false,
  source: null,
  subject: null,
});

async function visibleAndHidden(queue: QueueClient): Promise<number> {
  return (await queue.getProperties()).approximateMessagesCount ?? 0;
}

describe('when the queue cannot take the hits', () => {
  let proxy: Awaited<ReturnType<typeof plainProxy>>;
  let host: LocalHost;
  let queue: QueueClient;
  let env: Record<string, string | undefined>;

  // The app reaches Azurite's queue through a proxy the test cuts, as when Azurite is down; the test reads the queue
  // itself directly.
  beforeAll(async () => {
    const direct = testEnv();
    proxy = await plainProxy(serviceUrl(direct.AzureWebJobsStorage, 'Queue')!);
    env = { ...direct, AzureWebJobsStorage: queueAt(direct.AzureWebJobsStorage!, proxy.endpoint) };
    queue = new QueueClient(direct.AzureWebJobsStorage!, env.HITS_QUEUE!);
    await queue.createIfNotExists();
    // Ingest reads each day's secret from the store.
    await containerOf(direct);
    host = await startLocalHost({ root: rootFromEnvironment(env), port: 0, queues: false, timers: false });
  });
  afterAll(async () => {
    await host.stop();
    await proxy.close();
    await queue.delete();
  });

  it('answers 503 with the queue unreachable, and once it is back no part of the request is on the queue', async () => {
    await proxy.cut();
    const many = Array.from({ length: 300 }, (_, i) => ({
      address: `203.0.113.${i % 250}`,
      user_agent: AGENTS.chromeWindows,
      path: `/p/${'x'.repeat(400)}/${i}`,
    }));
    const answer = await post(`${host.url}/api/hits`, { hits: many }, { 'x-ingest-key': env.INGEST_KEY! });
    expect(answer.status).toBe(503);
    expect(answer.json.error.code).toBe('queue_unavailable');

    await proxy.restore();
    expect(await visibleAndHidden(queue)).toBe(0);
    const again = await post(`${host.url}/api/hits`, { hits: many }, { 'x-ingest-key': env.INGEST_KEY! });
    expect(again).toMatchObject({ status: 202, json: { accepted: 300 } });
    expect(await visibleAndHidden(queue)).toBeGreaterThan(1);
    await queue.clearMessages();
  });

  it('removes the messages already sent when a later one of the same request fails, so none is ever read', async () => {
    const messages = toMessages(Array.from({ length: 400 }, (_, i) => hit(i))).map(encodeMessage);
    expect(messages.length).toBeGreaterThanOrEqual(3);
    let sends = 0;
    // The real Azurite queue, with its third send made to fail as a dropped connection would.
    const failing = new Proxy(queue, {
      get(target, property, receiver) {
        if (property === 'sendMessage') {
          return (...args: Parameters<QueueClient['sendMessage']>) => {
            sends += 1;
            if (sends === 3) return Promise.reject(new Error('connection reset'));
            return target.sendMessage(...args);
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const result = await azureHitQueue(failing).sendAll(messages);
    expect(result.ok).toBe(false);
    expect(sends).toBe(3);
    expect(await visibleAndHidden(queue)).toBe(0);
    expect((await queue.receiveMessages({ numberOfMessages: 32 })).receivedMessageItems).toHaveLength(0);
  });

  it('shows every message of a multi-message request at once when all were sent', async () => {
    const messages = toMessages(Array.from({ length: 400 }, (_, i) => hit(i))).map(encodeMessage);
    const result = await azureHitQueue(queue).sendAll(messages);
    expect(result.ok).toBe(true);
    const received = await queue.receiveMessages({ numberOfMessages: 32 });
    expect(received.receivedMessageItems).toHaveLength(messages.length);
  });
});
