import { filtersSchema } from '../../contract/queries';
import type { Filter } from '../../core/rollup/filters';
import type { ConfigAnnotation, ConfigSegment } from '../../core/store/config';

/** A read's own filters with those of each segment it names, or why a name is no saved segment. */
export function withSegments(filters: readonly Filter[], names: readonly string[], saved: readonly ConfigSegment[]): Filter[] | string {
  const all = [...filters];
  for (const name of names) {
    const segment = saved.find((one) => one.name === name);
    if (segment === undefined) return `segment:${name.slice(0, 40)} is not a saved segment`;
    for (const filter of filtersSchema.parse(segment.filters))
      if (!all.some((one) => one.dimension === filter.dimension && one.value === filter.value && one.negated === filter.negated))
        all.push(filter);
  }
  return all;
}

/** The notes on the days of a period, oldest first. */
export const annotationsWithin = (annotations: readonly ConfigAnnotation[], from: string, to: string): ConfigAnnotation[] =>
  annotations.filter((one) => one.day >= from && one.day <= to).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
