import { systemClock, systemScheduler, type Clock, type Scheduler } from '../shared/core/ports/clock';
import type { Lease } from '../shared/core/ports/lease';
import type { Logger } from '../shared/core/ports/logger';

/** Tests set their own clock and scheduler, to move time rather than wait for it. */
export interface LockTiming {
  /** 15 to 60, the Blob service's range; renewed every third of it. */
  leaseSeconds: number;
  /** How often an instance without the lock tries to take it. */
  retryMs: number;
  /** A lease is held until its length after the call that took or renewed it. */
  clock?: Clock;
  scheduler?: Scheduler;
}

/** Close to the Functions host's own: a 15 s lease, tried for every 10 s. */
export const DEFAULT_LOCK_TIMING: LockTiming = { leaseSeconds: 15, retryMs: 10_000 };

export interface HeldLock {
  /** Only while its lease has not run out. */
  holds(): boolean;
  /** Releases the lease so another instance can take it at once. */
  stop(): Promise<void>;
}

/**
 * As the Functions host's singleton lock: another instance takes over within `retryMs` of a release, or a lease's length after a crash.
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
