import { QueueClient } from '@azure/storage-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootFromEnvironment, type Root } from '../../host/composition';
import { startLocalHost, type LocalHost } from '../../local/host';
import { memoryLogger } from '../../shared/core/ports/logger';
import { startTestHost, type TestHost } from '../support/host';
import { testEnv } from '../support/env';
import { containerOf } from '../support/cosmos';
import { AGENTS, post } from '../support/http';
import { manualScheduler } from '../support/scheduler';
import { beaconRequest, sendAtOnce } from '../support/beacon-clients';
import { plainProxy } from '../support/proxy';
import { queueAt, serviceUrl } from '../../local/services';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 200 browsers, each its own address (x-forwarded-for, one trusted hop), one beacon each, all at once. */
const CLIENTS = 200;
const agents = [AGENTS.chromeWindows, AGENTS.firefoxLinux, AGENTS.safariIphone];
const beacon = (url: string, n: number) =>
  post(
    `${url}/api/beacon`,
    { path: `/articles/${n % 7}` },
    {
      origin: 'https://site.example',
      'user-agent': agents[n % agents.length]!,
      'x-forwarded-for': `73.15.${Math.floor(n / 250)}.${n % 250}`,
    },
  );

describe('group commit through the local host, from 200 concurrent beacon clients', () => {
  let t: TestHost;
  const logger = memoryLogger();

  beforeAll(async () => {
    t = await startTestHost({ env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { logger } });
    await containerOf(t.env);
  });
  afterAll(async () => t.stop());

  it('puts at least 10 hits in a message, runs at most 1.2 executions a hit, answers every request 202, and counts each person once', async () => {
    // From a thread of their own, as browsers elsewhere: the clients' work does not take the host's event loop.
    const answers = await sendAtOnce(
      t.host.url,
      Array.from({ length: CLIENTS }, (_, n) => beaconRequest(n)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(CLIENTS).fill(202));
    await t.host.drain();
    const keeps = t.host.listeners().get('keep-hits')!.stats();
    const hitsPerMessage = CLIENTS / keeps.invocations;
    const executionsPerHit = (CLIENTS + keeps.invocations) / CLIENTS;
    console.log(
      `${CLIENTS} concurrent beacons: ${keeps.invocations} queue messages, ${hitsPerMessage.toFixed(1)} hits a message, ${executionsPerHit.toFixed(3)} executions a hit`,
    );
    expect(keeps.failures, logger.lines.slice(0, 3).join('\n')).toBe(0);
    expect(hitsPerMessage).toBeGreaterThanOrEqual(10);
    expect(executionsPerHit).toBeLessThanOrEqual(1.2);

    await t.fold();
    const count = await fetch(`${t.host.url}/api/admin/visitors/people`, { headers: { 'x-operator-key': t.env.OPERATOR_KEY! } });
    expect(count.status).toBe(200);
    expect(await count.json()).toMatchObject({ people_all_time: CLIENTS, people_new_today: CLIENTS });
    // No line a hit, nor a request: only the recount's one line a run.
    expect(logger.lines.filter((line) => !line.includes('"folded"'))).toEqual([]);
  });
});

describe('group commit when the queue goes away with a batch open', () => {
  const scheduler = manualScheduler();
  let proxy: Awaited<ReturnType<typeof plainProxy>>;
  let host: LocalHost;
  let root: Root;
  let queue: QueueClient;
  let url: string;

  // The app reaches Azurite's queue through a proxy the test cuts, as when Azurite is down; the test reads the queue
  // itself directly.
  beforeAll(async () => {
    const direct = testEnv({ TRUSTED_PROXY_HOPS: '1' });
    proxy = await plainProxy(serviceUrl(direct.AzureWebJobsStorage, 'Queue')!);
    const env: Record<string, string | undefined> = {
      ...direct,
      AzureWebJobsStorage: queueAt(direct.AzureWebJobsStorage!, proxy.endpoint),
    };
    queue = new QueueClient(direct.AzureWebJobsStorage!, env.HITS_QUEUE!);
    await queue.createIfNotExists();
    // Ingest reads each day's secret from the store.
    await containerOf(direct);
    root = rootFromEnvironment(env, { scheduler, logger: memoryLogger() });
    host = await startLocalHost({ root, port: 0, queues: false, timers: false });
    url = host.url;
  });
  afterAll(async () => {
    await host.stop();
    await proxy.close();
    await queue.delete();
  });

  /** Posts `count` beacons and waits until all of them wait in the open batch. */
  async function openBatch(count: number, offset: number) {
    const answers = Promise.all(Array.from({ length: count }, (_, n) => beacon(url, offset + n)));
    while (root.receive.sender.waiting().requests < count) await sleep(20);
    // Wrapped, so that awaiting this waits for the batch to open, not for the answers.
    return { answers };
  }

  it('answers every request of the batch 503 and leaves nothing of it on the queue; once the queue is back, one message takes them all', async () => {
    const { answers } = await openBatch(40, 0);
    await proxy.cut();
    scheduler.elapse(1_000);
    const failed = await answers;
    expect(failed.map((a) => a.status)).toEqual(Array(40).fill(503));
    expect(failed.every((a) => a.json.error.code === 'queue_unavailable')).toBe(true);

    await proxy.restore();
    expect((await queue.getProperties()).approximateMessagesCount).toBe(0);

    const { answers: again } = await openBatch(40, 40);
    scheduler.elapse(1_000);
    expect((await again).map((a) => a.status)).toEqual(Array(40).fill(202));
    const onQueue = await queue.peekMessages({ numberOfMessages: 32 });
    expect(onQueue.peekedMessageItems).toHaveLength(1);
    const message = JSON.parse(Buffer.from(onQueue.peekedMessageItems[0]!.messageText, 'base64').toString('utf8'));
    expect(message.hits).toHaveLength(40);
    await queue.clearMessages();
  });

  it('lets a server request that alone fills a message pass an open batch, split into several messages, all shown', async () => {
    const { answers: waiting } = await openBatch(3, 100);
    const many = Array.from({ length: 250 }, (_, i) => ({
      address: `203.0.113.${i % 250}`,
      user_agent: AGENTS.chromeWindows,
      path: `/p/${i}`,
    }));
    const big = await post(`${url}/api/hits`, { hits: many }, { 'x-ingest-key': 'test-ingest-key-0123456789' });
    expect(big).toMatchObject({ status: 202, json: { accepted: 250 } });
    expect(root.receive.sender.waiting().requests).toBe(3);
    scheduler.elapse(1_000);
    expect((await waiting).map((a) => a.status)).toEqual([202, 202, 202]);
    const onQueue = await queue.peekMessages({ numberOfMessages: 32 });
    const sizes = onQueue.peekedMessageItems
      .map((m) => JSON.parse(Buffer.from(m.messageText, 'base64').toString('utf8')).hits.length)
      .sort((a: number, b: number) => a - b);
    expect(sizes).toEqual([3, 50, 100, 100]);
    await queue.clearMessages();
  });
});
