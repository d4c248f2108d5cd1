import type { Filter } from './filters';
import { countsOfEntries, type TokenRow } from './day-columns';
import { addCounts, emptyCounts } from './day-rollup';
import type { RollupCounts } from '../store/rollups';
import type { DaysTally, Sketches } from '../store/day-files';
import type { Sketch } from '../sketch';

const SKETCHES = ['people', 'fresh', 'back'] as const;

/** A person's counts match when its row is a person's; its sketches when it is any kind's but the site's loopback. */
export function matchesRow(row: TokenRow, filters: readonly Filter[], people: boolean): boolean {
  if (row.who === null || (people && row.who !== 'people')) return false;
  return filters.every((filter) => row.values[filter.dimension].includes(filter.value) !== filter.negated);
}

type Registers = Record<string, number>;

/** What the columnar engine computes, in the function: for the days still in Cosmos DB, read a page at a time. */
export function rowsTally(filters: readonly Filter[]) {
  const counts = new Map<string, RollupCounts & { partial: boolean }>();
  const registers = new Map<string, Sketches<Registers>>();
  return {
    add(rows: Iterable<TokenRow>): void {
      for (const row of rows) {
        if (matchesRow(row, filters, true)) {
          const at = counts.get(row.day) ?? { ...emptyCounts(), partial: false };
          addCounts(at, countsOfEntries(row.counts), 1);
          at.partial ||= row.partial;
          counts.set(row.day, at);
        }
        if (!matchesRow(row, filters, false)) continue;
        const at = registers.get(row.day) ?? { people: {}, fresh: {}, back: {} };
        registers.set(row.day, at);
        for (const sketch of SKETCHES)
          for (const [register, rank] of row[sketch]) if ((at[sketch][register] ?? 0) < rank) at[sketch][register] = rank;
      }
    },
    done(): DaysTally {
      const sketches = new Map(
        [...registers].map(
          ([day, at]) => [day, { people: { sparse: at.people }, fresh: { sparse: at.fresh }, back: { sparse: at.back } }] as const,
        ),
      );
      return { counts, sketches, bytes: 0 };
    },
  };
}

/** The people of matching visitor-days by first month and month seen, as a filter's retention cells hold them. */
export function cohortsTally(filters: readonly Filter[]) {
  const cells = new Map<string, Registers>();
  return {
    add(rows: Iterable<TokenRow>): void {
      for (const row of rows) {
        if (!matchesRow(row, filters, false)) continue;
        for (const [first, register, rank] of row.firsts) {
          const key = cohortKey(first, row.day);
          const at = cells.get(key) ?? {};
          if ((at[register] ?? 0) < rank) at[register] = rank;
          cells.set(key, at);
        }
      }
    },
    done: (): Map<string, Sketch> => new Map([...cells].map(([key, registers]) => [key, { sparse: registers }])),
  };
}

export const cohortKey = (first: string, day: string) => `${first.slice(0, 7)}|${day.slice(0, 7)}`;

/** Two tallies of different days as one. */
export const joinTallies = (a: DaysTally, b: DaysTally): DaysTally => ({
  counts: new Map([...a.counts, ...b.counts]),
  sketches: new Map([...a.sketches, ...b.sketches]),
  bytes: a.bytes + b.bytes,
});
