/** The time is a dependency so tests can set it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(start: Date | string): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

/** A dependency so tests can say when time has passed. */
export interface Scheduler {
  after(ms: number, task: () => void): { cancel(): void };
}

const timers = (keepsAlive: boolean): Scheduler => ({
  after(ms, task) {
    const handle = setTimeout(task, ms);
    if (!keepsAlive) handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
});

export const systemScheduler: Scheduler = timers(true);

/** For housekeeping, such as forgetting a day's cache, that must never keep a process (an import, a bench) alive. */
export const backgroundScheduler: Scheduler = timers(false);
