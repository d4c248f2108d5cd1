/** The time, as a dependency, so tests can set it. Days are UTC. */
export interface Clock {
  now(): Date;
}

/** The machine's clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands where it is put, for tests and benchmarks. */
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

/** Runs something later, as a dependency, so tests can say when time has passed. */
export interface Scheduler {
  /** Runs `task` after `ms` milliseconds, unless the answer's `cancel` is called first. */
  after(ms: number, task: () => void): { cancel(): void };
}

/** The machine's timers. */
export const systemScheduler: Scheduler = {
  after(ms, task) {
    const handle = setTimeout(task, ms);
    return { cancel: () => clearTimeout(handle) };
  },
};
