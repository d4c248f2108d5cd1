/** The value at quantile `q` of `values` by nearest rank: at 0.5 the median, the lower of the middle two. 0 for none. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

/** The median of `values`, as `percentile` takes it. */
export const median = (values: readonly number[]) => percentile(values, 0.5);
