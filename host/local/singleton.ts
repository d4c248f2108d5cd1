import type { Lease } from '../../shared/ports/lease';
import type { Logger } from '../../shared/ports/logger';

/** How a lock is held: the lease's length, and how often one not held is tried for again. */
export interface LockTiming {
  /** The lease's length in seconds, 15 to 60 (the Blob service's range); renewed every third of it. */
  leaseSeconds: number;
  /** How often an instance that does not hold the lock tries to take it. */
  retryMs: number;
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
  let leaseId: string | null = null;
  let validUntil = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const tick = async () => {
    const asked = Date.now();
    if (leaseId !== null) {
      const renewed = await lease.renew(leaseId);
      if (renewed.held) validUntil = asked + leaseMs;
      else if (Date.now() >= validUntil) {
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
    timer = setTimeout(
      () => {
        running = tick().finally(schedule);
      },
      leaseId !== null ? leaseMs / 3 : timing.retryMs,
    );
  };
  schedule();

  return {
    holds: () => leaseId !== null && Date.now() < validUntil,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => undefined);
      if (leaseId !== null) await lease.release(leaseId);
      leaseId = null;
    },
  };
}
