import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { holdLock, type HeldLock } from '../../host/local/singleton';
import type { Lease } from '../../shared/ports/lease';
import { memoryLogger } from '../../shared/ports/logger';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One lock's lease as the Blob service keeps it: one holder, expiring `ms` after it was taken or renewed. */
function leaseServer(ms: number) {
  let holder: { id: string; until: number } | null = null;
  const free = () => holder === null || holder.until <= Date.now();
  /** A client of it; `cut` makes every call of this client fail, as a host cut off from the storage. */
  const client = (): Lease & { cut: boolean } => {
    const self = {
      cut: false,
      async acquire() {
        if (self.cut) return { held: false as const, reason: 'ECONNREFUSED' };
        if (!free()) return { held: false as const, reason: 'LeaseAlreadyPresent' };
        holder = { id: randomUUID(), until: Date.now() + ms };
        return { held: true as const, leaseId: holder.id };
      },
      async renew(leaseId: string) {
        if (self.cut) return { held: false as const, reason: 'ECONNREFUSED' };
        if (holder?.id !== leaseId && !free()) return { held: false as const, reason: 'LeaseIdMismatch' };
        holder = { id: leaseId, until: Date.now() + ms };
        return { held: true as const, leaseId };
      },
      async release(leaseId: string) {
        if (!self.cut && holder?.id === leaseId) holder = null;
      },
    };
    return self;
  };
  return { client };
}

describe('a timer lock', () => {
  const locks: HeldLock[] = [];
  afterEach(async () => {
    await Promise.all(locks.splice(0).map((lock) => lock.stop()));
  });

  it('is held by one instance, passes on release at the next try, and never by two at once', async () => {
    const server = leaseServer(600);
    const timing = { leaseSeconds: 0.6, retryMs: 50 };
    const a = await holdLock(server.client(), timing, memoryLogger(), 'tick');
    const b = await holdLock(server.client(), timing, memoryLogger(), 'tick');
    locks.push(a, b);
    for (let i = 0; i < 15; i++) {
      // Renewed every 200 ms: held past the lease's length.
      expect([a.holds(), b.holds()]).toEqual([true, false]);
      await sleep(100);
    }
    await a.stop();
    await sleep(150);
    expect(b.holds()).toBe(true);
  });

  it('a holder cut off stops claiming the lock before the lease runs out, and the other takes it after', async () => {
    const server = leaseServer(600);
    const timing = { leaseSeconds: 0.6, retryMs: 50 };
    const aLease = server.client();
    const a = await holdLock(aLease, timing, memoryLogger(), 'tick');
    const b = await holdLock(server.client(), timing, memoryLogger(), 'tick');
    locks.push(a, b);
    aLease.cut = true;
    const deadline = Date.now() + 3000;
    let handedOver = false;
    while (Date.now() < deadline && !handedOver) {
      expect(a.holds() && b.holds()).toBe(false);
      handedOver = b.holds();
      await sleep(20);
    }
    expect(handedOver).toBe(true);
    expect(a.holds()).toBe(false);
  });
});
