import { performance } from 'node:perf_hooks';
import type { Registration } from '../../host/registry';
import type { Logger } from '../../shared/core/ports/logger';

/** Counts executions by kind, and the seconds in which at least one ran (overlapping ones counted once). */
export function executionMeter() {
  const counts = { http: 0, queue: 0, timer: 0 };
  let running = 0;
  let since = 0;
  let activeMs = 0;
  const timed =
    (kind: keyof typeof counts, handler: (...args: unknown[]) => unknown) =>
    async (...args: unknown[]) => {
      counts[kind] += 1;
      if (running++ === 0) since = performance.now();
      try {
        return await handler(...args);
      } finally {
        if (--running === 0) activeMs += performance.now() - since;
      }
    };
  return {
    wrap: (registrations: readonly Registration[]): Registration[] =>
      registrations.map((registration) => ({
        ...registration,
        make: (root: Parameters<Registration['make']>[0]) =>
          timed(registration.kind, registration.make(root) as (...args: unknown[]) => unknown) as never,
      })),
    take() {
      const taken = { ...counts, activeSeconds: activeMs / 1000 };
      counts.http = counts.queue = counts.timer = 0;
      activeMs = 0;
      return taken;
    },
  };
}

/** A logger that writes nothing and counts the lines and bytes the app would have written. */
export function countingLogger(): Logger & { take(): { lines: number; bytes: number }; said(message: string): number } {
  const said = new Map<string, number>();
  let lines = 0;
  let bytes = 0;
  const count = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines += 1;
    said.set(message, (said.get(message) ?? 0) + 1);
    bytes += Buffer.byteLength(JSON.stringify({ level, message, ...fields }));
  };
  return {
    info: count('info'),
    warn: count('warn'),
    error: count('error'),
    said: (message: string) => said.get(message) ?? 0,
    take() {
      const taken = { lines, bytes };
      lines = bytes = 0;
      return taken;
    },
  };
}
