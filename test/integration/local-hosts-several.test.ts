import { randomUUID } from 'node:crypto';
import { QueueClient } from '@azure/storage-queue';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { blobCall, blobLocationFromConnectionString } from '../../adapters/azure-blob';
import { blobLease, lockBlob } from '../../adapters/azure-blob-lease';
import { loadFunctions } from '../../local/host';
import { DEFAULT_LOCK_TIMING } from '../../local/singleton';
import type { QueueRegistration, TimerRegistration } from '../../host/registry';
import { encodeMessage } from '../../shared/core/message';
import type { Lease } from '../../shared/core/ports/lease';
import { startTestHost, type TestHost } from '../support/host';
import { testEnv } from '../support/env';
import { queued } from '../support/hits';
import { containerOf } from '../support/cosmos';

/**
 * Timer locks as blob leases on the tests' Azurite, each call tracked, so the test can let every answer in before it
 * moves the time on: the hosts' timers and clocks are vitest's fake ones, moved a second at a time, and the leases'
 * calls are real.
 */
function trackedLeases(connection: string, hostId: string) {
  const call = blobCall(blobLocationFromConnectionString(connection)!);
  const inFlight = new Set<Promise<unknown>>();
  const tracked = <T>(answer: Promise<T>): Promise<T> => {
    inFlight.add(answer);
    const done = () => void inFlight.delete(answer);
    answer.then(done, done);
    return answer;
  };
  return {
    lease(name: string): Lease {
      const lease = blobLease(call, lockBlob(hostId, name), DEFAULT_LOCK_TIMING.leaseSeconds);
      return {
        acquire: () => tracked(lease.acquire()),
        renew: (leaseId) => tracked(lease.renew(leaseId)),
        release: (leaseId) => tracked(lease.release(leaseId)),
      };
    },
    /** Resolves once no lease call is waiting for its answer. */
    async answered() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

describe('several local hosts on one storage, as instances in Azure', () => {
  const hosts: TestHost[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(hosts.splice(0).map((host) => host.stop()));
  });

  it('run each timer occurrence in exactly one of them, the one holding the lease, which passes on when it stops', async () => {
    const env = testEnv();
    const hostId = `test-${randomUUID().slice(0, 8)}`;
    const leases = trackedLeases(env.AzureWebJobsStorage!, hostId);
    // The hosts' time: their timers, the cron schedule and the locks' clock, half a second into a second.
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      now: Math.floor(Date.now() / 1000) * 1000 + 500,
    });
    /** A second of the hosts' time, and every lease call it started answered. */
    const second = async () => {
      await vi.advanceTimersByTimeAsync(1000);
      await leases.answered();
    };
    const runs: { host: string; second: number }[] = [];
    // A timer of the test's own, every second, run by both hosts under one name: one lock.
    const tick = (host: string): TimerRegistration => ({
      kind: 'timer',
      name: 'tick',
      schedule: '* * * * * *',
      make: () => async () => {
        runs.push({ host, second: Math.floor(Date.now() / 1000) });
      },
    });
    const start = (host: string) =>
      startTestHost({
        env,
        queues: false,
        timers: true,
        registrations: [tick(host)],
        singleton: { hostId, lease: (name) => leases.lease(name), retryMs: 300 },
      });
    const a = await start('a');
    hosts.push(a);
    const b = await start('b');
    hosts.push(b);

    // Three lengths of the 15 s lease: the holder renews it, runs every occurrence, and the other never gets it.
    const seconds = 3 * DEFAULT_LOCK_TIMING.leaseSeconds;
    for (let i = 0; i < seconds; i++) await second();
    const whileA = [...runs];
    expect(new Set(whileA.map((run) => run.host))).toEqual(new Set(['a']));
    expect(whileA).toHaveLength(seconds);

    // The holder stops and releases the lease: the other takes it on its next try and runs the timer from then on.
    await a.stop();
    hosts.splice(hosts.indexOf(a), 1);
    const stoppedAt = runs.length;
    for (let i = 0; i < 10 && runs.slice(stoppedAt).filter((run) => run.host === 'b').length < 3; i++) await second();
    expect(runs.slice(stoppedAt).filter((run) => run.host === 'b').length).toBeGreaterThanOrEqual(3);
    expect(runs.slice(stoppedAt).every((run) => run.host === 'b')).toBe(true);

    // Never two runs of one occurrence.
    const perSecond = new Map<number, number>();
    for (const run of runs) perSecond.set(run.second, (perSecond.get(run.second) ?? 0) + 1);
    expect([...perSecond.values()].every((count) => count === 1)).toBe(true);
  });

  it('share one queue: each host takes some messages and the trigger keeps none twice', async () => {
    const env = testEnv();
    const keepHits = (await loadFunctions()).find((r): r is QueueRegistration => r.kind === 'queue' && r.name === 'keep-hits')!;
    const container = await containerOf(env);
    const invocations: { host: string; id: string }[] = [];
    // The real keep-hits, counted per message id and host when it has kept the message (a failed try is retried).
    const counted = (host: string): QueueRegistration => ({
      ...keepHits,
      make: (root) => {
        const handler = keepHits.make(root);
        return async (payload, context) => {
          await handler(payload, context);
          invocations.push({ host, id: String((payload as { id?: unknown }).id) });
        };
      },
    });
    // Queued before either host starts, so both find messages waiting, however fast the first one keeps them.
    const queue = new QueueClient(env.AzureWebJobsStorage!, env.HITS_QUEUE!);
    await queue.createIfNotExists();
    const ids = Array.from({ length: 64 }, () => randomUUID());
    for (const [n, id] of ids.entries()) {
      await queue.sendMessage(
        encodeMessage({ v: 1, id, hits: [queued(`person-${n}`, new Date().toISOString().replace(/\.\d+Z$/, '.000Z'))] }),
      );
    }
    const queueSettings = { batchSize: 4, visibilityTimeout: 200, maxPollingInterval: 500 };
    const [a, b] = await Promise.all([
      startTestHost({ env, registrations: [counted('a')], queueSettings }),
      startTestHost({ env, registrations: [counted('b')], queueSettings }),
    ]);
    hosts.push(a, b);
    await Promise.all([a.host.drain(), b.host.drain()]);

    const perId = new Map<string, number>();
    for (const { id } of invocations) perId.set(id, (perId.get(id) ?? 0) + 1);
    expect([...perId.keys()].sort()).toEqual([...ids].sort());
    expect([...perId.values()].every((count) => count === 1)).toBe(true);
    const byHost = (host: string) => invocations.filter((one) => one.host === host).length;
    expect(byHost('a')).toBeGreaterThan(0);
    expect(byHost('b')).toBeGreaterThan(0);
    for (const host of [a, b]) expect(host.host.listeners().get('keep-hits')!.stats()).toMatchObject({ poisoned: 0 });
    // One visitor record per person (DESIGN: kind visitor-record, pk visitors), each seen on one day.
    const { resources } = await container.items
      .query<{ id: string }>({ query: "SELECT c.id FROM c WHERE c.pk = 'visitors' AND c.kind = 'visitor-record'" })
      .fetchAll();
    expect(resources).toHaveLength(ids.length);
  });
});
