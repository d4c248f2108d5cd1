import type { Clock, Scheduler } from '../../shared/core/ports/clock';

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

/** Lets every promise already settled, and what each starts in turn, run: a few turns of the event loop, no time. */
export async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * A clock and timers that move only when the test moves them. `elapse` walks the time forward task by task, in the
 * order they fall due (a task scheduled meanwhile included), and lets the promises each task starts settle before the
 * next: a second of it takes no second.
 */
export function manualTime(start: Date | string = '2026-12-01T12:00:00.000Z'): Clock & Scheduler & { elapse(ms: number): Promise<void> } {
  let now = new Date(start).getTime();
  let tasks: Array<{ at: number; order: number; task: () => void }> = [];
  let order = 0;
  return {
    now: () => new Date(now),
    after(ms, task) {
      const entry = { at: now + Math.max(0, ms), order: order++, task };
      tasks.push(entry);
      return { cancel: () => void (tasks = tasks.filter((t) => t !== entry)) };
    },
    async elapse(ms) {
      const until = now + ms;
      await turns();
      for (;;) {
        const next = tasks.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0];
        if (!next) break;
        tasks = tasks.filter((t) => t !== next);
        now = next.at;
        next.task();
        await turns();
      }
      now = until;
    },
  };
}
