import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LOCK_TIMING, holdLock, type HeldLock, type LockTiming } from '../../local/singleton';
import type { Clock } from '../../shared/core/ports/clock';
import type { Lease } from '../../shared/core/ports/lease';
import { memoryLogger } from '../../shared/core/ports/logger';
import { manualTime } from '../support/scheduler';

/** One lock's lease as the Blob service keeps it: one holder, expiring `ms` after it was taken or renewed, on `clock`. */
function leaseServer(ms: number, clock: Clock) {
  const now = () => clock.now().getTime();
  let holder: { id: string; until: number; client: object } | null = null;
  const free = () => holder === null || holder.until <= now();
  /** A client of it; `cut` makes every call of this client fail, as a host cut off from the storage. */
  const client = (): Lease & { cut: boolean } => {
    const self = {
      cut: false,
      async acquire() {
        if (self.cut) return { held: false as const, reason: 'ECONNREFUSED' };
        if (!free()) return { held: false as const, reason: 'LeaseAlreadyPresent' };
        holder = { id: randomUUID(), until: now() + ms, client: self };
        return { held: true as const, leaseId: holder.id };
      },
      async renew(leaseId: string) {
        if (self.cut) return { held: false as const, reason: 'ECONNREFUSED' };
        if (holder?.id !== leaseId && !free()) return { held: false as const, reason: 'LeaseIdMismatch' };
        holder = { id: leaseId, until: now() + ms, client: self };
        return { held: true as const, leaseId };
      },
      async release(leaseId: string) {
        if (!self.cut && holder?.id === leaseId) holder = null;
      },
    };
    return self;
  };
  /** The client whose lease runs now, by the server's clock; null when the lock is free. */
  const heldBy = () => (free() ? null : holder!.client);
  return { client, heldBy };
}

// The lock's clock and timers are the test's (manualTime): a lease of the real length, 15 s, renewed every 5 s and
// tried for every 10 s, runs through minutes of its time in no time.
describe('a timer lock', () => {
  const locks: HeldLock[] = [];
  afterEach(async () => {
    await Promise.all(locks.splice(0).map((lock) => lock.stop()));
  });

  it('is held by one instance, passes on release at the next try, and never by two at once', async () => {
    const time = manualTime();
    const timing: LockTiming = { ...DEFAULT_LOCK_TIMING, clock: time, scheduler: time };
    const server = leaseServer(timing.leaseSeconds * 1000, time);
    const aLease = server.client();
    const a = await holdLock(aLease, timing, memoryLogger(), 'tick');
    const b = await holdLock(server.client(), timing, memoryLogger(), 'tick');
    locks.push(a, b);
    for (let second = 0; second < 3 * timing.leaseSeconds; second++) {
      // Renewed every third of the lease: held past three of its lengths, and the server agrees.
      expect([a.holds(), b.holds()], `at ${second} s`).toEqual([true, false]);
      expect(server.heldBy(), `at ${second} s`).toBe(aLease);
      await time.elapse(1000);
    }
    await a.stop();
    expect(a.holds()).toBe(false);
    expect(server.heldBy()).toBeNull();
    await time.elapse(timing.retryMs);
    expect([a.holds(), b.holds()]).toEqual([false, true]);
  });

  it('a holder cut off stops claiming the lock before the lease runs out, and the other takes it after', async () => {
    const time = manualTime();
    const timing: LockTiming = { ...DEFAULT_LOCK_TIMING, clock: time, scheduler: time };
    const server = leaseServer(timing.leaseSeconds * 1000, time);
    const aLease = server.client();
    const a = await holdLock(aLease, timing, memoryLogger(), 'tick');
    const b = await holdLock(server.client(), timing, memoryLogger(), 'tick');
    locks.push(a, b);
    aLease.cut = true;
    let handedOver = false;
    // A step of 100 ms of the lock's time, for four lease lengths at most.
    for (let step = 0; step < 40 * timing.leaseSeconds && !handedOver; step++) {
      expect(a.holds() && b.holds()).toBe(false);
      // Never a claim the server does not back: cut off, a stops claiming the lock by the time its lease runs out.
      if (a.holds()) expect(server.heldBy()).toBe(aLease);
      handedOver = b.holds();
      await time.elapse(100);
    }
    expect(handedOver).toBe(true);
    expect(a.holds()).toBe(false);
  });
});
