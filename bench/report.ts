import { performance } from 'node:perf_hooks';
import type { StoreStats } from '../shared/core/store';

export const fmt = (n: number, digits = 0) => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A 32-hex stand-in for a hash from a number, as the queue's schema and a visitor record's id take it. */
export const hex = (n: number) => n.toString(16).padStart(32, '0');

/** The value at quantile `q` by nearest rank (at 0.5 the lower middle); 0 for none. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

export const median = (values: readonly number[]) => percentile(values, 0.5);

export const ops = (cost: StoreStats) => `${cost.reads} reads, ${cost.writes} writes, ${cost.queries} queries`;

/** A store's calls for `count` of something, split: `1.234 calls a hit (…reads, …writes, …queries)`. */
export function callsA(cost: StoreStats, count: number, unit: string): string {
  const per = (n: number) => (n / count).toFixed(3);
  return `${per(cost.reads + cost.writes + cost.queries)} calls ${unit} (${per(cost.reads)} reads, ${per(cost.writes)} writes, ${per(cost.queries)} queries)`;
}

export async function costed<T>(store: { stats(): StoreStats }, work: () => Promise<T>) {
  const before = store.stats();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  const cost = Object.fromEntries(Object.entries(store.stats()).map(([key, n]) => [key, n - before[key as keyof StoreStats]]));
  return { result, ms, cost: cost as unknown as StoreStats };
}

/** Runs a script's `main`, the process ended with 1 on a failure (and with 0 once done, unless it serves on). */
export const runMain = (main: () => Promise<void>, exitWhenDone = true) =>
  main().then(
    () => exitWhenDone && process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
