import { systemClock, systemScheduler, type Clock, type Scheduler } from '../../shared/core/ports/clock';
import type { Lease } from '../../shared/core/ports/lease';
import type { Logger } from '../../shared/core/ports/logger';

/**
 * How a lock is held: the lease's length, how often one not held is tried for again, and the clock and timers they are
 * measured by (the machine's unless a test sets its own, to move time rather than wait for it).
 */
export interface LockTiming {
  /** The lease's length in seconds, 15 to 60 (the Blob service's range); renewed every third of it. */
  leaseSeconds: number;
  /** How often an instance that does not hold the lock tries to take it. */
  retryMs: number;
  /** What `holds()` reads the time from: a lease is held until its length after the call that took or renewed it. */
  clock?: Clock;
  /** What runs the renewals and the retries. */
  scheduler?: Scheduler;
}

/** The Functions host's own timing for a listener's singleton lock, close enough: a 15 s lease, tried for every 10 s. */
export const DEFAULT_LOCK_TIMING: LockTiming = { leaseSeconds: 15, retryMs: 10_000 };

/** A lock this instance tries to hold for as long as it runs. */
export interface HeldLock {
  /** Whether this instance holds the lock now (and its lease has not run out). */
  holds(): boolean;
  /** Stops renewing, and releases the lease if held, so another instance can take it at once. */
  stop(): Promise<void>;
}

/**
 * Holds a lock for one timer as the Functions host holds a timer listener's singleton lock: the instance that takes the
 * lease runs the timer, renews the lease while it runs, and releases it on stop; every other instance tries to take
 * it every `retryMs`, so one takes over within that time of a release, or within the lease's length of a crash.
 * Resolves once the first attempt is answered, so the first instance started holds the lock from the start.
 */
export async function holdLock(lease: Lease, timing: LockTiming, logger: Logger, name: string): Promise<HeldLock> {
  const leaseMs = timing.leaseSeconds * 1000;
  const clock = timing.clock ?? systemClock;
  const scheduler = timing.scheduler ?? systemScheduler;
  const now = () => clock.now().getTime();
  let leaseId: string | null = null;
  let validUntil = 0;
  let stopped = false;
  let timer: { cancel(): void } | undefined;

  const tick = async () => {
    const asked = now();
    if (leaseId !== null) {
      const renewed = await lease.renew(leaseId);
      if (renewed.held) validUntil = asked + leaseMs;
      else if (now() >= validUntil) {
        leaseId = null;
        logger.warn('timer lock lost', { function: name, reason: renewed.reason });
      }
      return;
    }
    const taken = await lease.acquire();
    if (!taken.held) return;
    leaseId = taken.leaseId;
    validUntil = asked + leaseMs;
    logger.info('timer lock taken: this instance runs the timer', { function: name });
  };

  let running: Promise<void> = tick();
  await running;
  const schedule = () => {
    if (stopped) return;
    timer = scheduler.after(leaseId !== null ? leaseMs / 3 : timing.retryMs, () => {
      running = tick().finally(schedule);
    });
  };
  schedule();

  return {
    holds: () => leaseId !== null && now() < validUntil,
    async stop() {
      stopped = true;
      timer?.cancel();
      await running.catch(() => undefined);
      if (leaseId !== null) await lease.release(leaseId);
      leaseId = null;
    },
  };
}
