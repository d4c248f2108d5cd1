import type { StoreStats } from '../shared/core/store';

/** A figure as the benches print it: thousands separated, `digits` decimals. */
export const fmt = (n: number, digits = 0) => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** What a store did between two readings of its stats. */
export const spent = (before: StoreStats, after: StoreStats): StoreStats => ({
  reads: after.reads - before.reads,
  writes: after.writes - before.writes,
  queries: after.queries - before.queries,
  requestUnits: after.requestUnits - before.requestUnits,
  failures: after.failures - before.failures,
  conflicts: after.conflicts - before.conflicts,
});

/** A store's calls as reads, writes and queries. */
export const ops = (cost: StoreStats) => `${cost.reads} reads, ${cost.writes} writes, ${cost.queries} queries`;

/** A store's calls for `count` of something (`a hit`, `a scan`), split: `1.234 calls a hit (…reads, …writes, …queries)`. */
export function callsA(cost: StoreStats, count: number, unit: string): string {
  const per = (n: number) => (n / count).toFixed(3);
  return `${per(cost.reads + cost.writes + cost.queries)} calls ${unit} (${per(cost.reads)} reads, ${per(cost.writes)} writes, ${per(cost.queries)} queries)`;
}
