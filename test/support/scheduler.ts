import type { Scheduler } from '../../shared/ports/clock';

/** Timers that run only when the test says the time has come. */
export function manualScheduler(): Scheduler & { pending(): number[]; elapse(ms: number): void } {
  let now = 0;
  let tasks: Array<{ at: number; task: () => void; cancelled: boolean }> = [];
  return {
    after(ms, task) {
      const entry = { at: now + ms, task, cancelled: false };
      tasks.push(entry);
      return { cancel: () => void (entry.cancelled = true) };
    },
    pending: () => tasks.filter((t) => !t.cancelled).map((t) => t.at - now),
    elapse(ms) {
      now += ms;
      const due = tasks.filter((t) => !t.cancelled && t.at <= now);
      tasks = tasks.filter((t) => !due.includes(t));
      for (const t of due) t.task();
    },
  };
}
