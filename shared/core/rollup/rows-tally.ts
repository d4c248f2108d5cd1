import type { Filter } from './filters';
import { countsOfEntries, type Registers, type TokenRow } from './day-columns';
import { addCounts, emptyCounts } from './day-rollup';
import type { RollupCounts } from '../store/rollups';
import { estimateOfRanks } from '../sketch';
import type { DaysTally, Sketches } from '../store/day-files';

const SKETCHES = ['people', 'fresh', 'back'] as const;

/** A person's counts match when its row is a person's; its sketches when it is any kind's but the site's loopback. */
export function matchesRow(row: TokenRow, filters: readonly Filter[], people: boolean): boolean {
  if (row.who === null || (people && row.who !== 'people')) return false;
  return filters.every((filter) => row.values[filter.dimension].includes(filter.value) !== filter.negated);
}

type Ranks = Map<number, number>;

/** What the columnar engine computes, in the function: for the days still in Cosmos DB, read a page at a time. */
export function rowsTally(filters: readonly Filter[]) {
  const counts = new Map<string, RollupCounts & { partial: boolean }>();
  const registers = new Map<string, Sketches<Ranks>>();
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
        const at = registers.get(row.day) ?? { people: new Map(), fresh: new Map(), back: new Map() };
        registers.set(row.day, at);
        for (const sketch of SKETCHES) raise(at[sketch], row[sketch]);
      }
    },
    done(): DaysTally {
      const answer: DaysTally = { counts: new Map(), each: new Map(), union: { people: [], fresh: [], back: [] }, bytes: 0 };
      answer.counts = counts;
      const union: Sketches<Ranks> = { people: new Map(), fresh: new Map(), back: new Map() };
      for (const [day, at] of registers) {
        answer.each.set(day, { people: estimateOfRanks(histogram(at.people)), fresh: estimateOfRanks(histogram(at.fresh)), back: estimateOfRanks(histogram(at.back)) });
        for (const sketch of SKETCHES) raise(union[sketch], [...at[sketch]]);
      }
      for (const sketch of SKETCHES) answer.union[sketch] = [...union[sketch]];
      return answer;
    },
  };
}

function raise(into: Ranks, more: Registers): void {
  for (const [register, rank] of more) if ((into.get(register) ?? 0) < rank) into.set(register, rank);
}

/** How many registers hold each rank. */
function histogram(ranks: Ranks): Map<number, number> {
  const counts = new Map<number, number>();
  for (const rank of ranks.values()) counts.set(rank, (counts.get(rank) ?? 0) + 1);
  return counts;
}

/** Two tallies of different days as one. */
export function joinTallies(a: DaysTally, b: DaysTally): DaysTally {
  const union = (one: Registers, two: Registers) => {
    const ranks: Ranks = new Map();
    raise(ranks, one);
    raise(ranks, two);
    return [...ranks];
  };
  return {
    counts: new Map([...a.counts, ...b.counts]),
    each: new Map([...a.each, ...b.each]),
    union: { people: union(a.union.people, b.union.people), fresh: union(a.union.fresh, b.union.fresh), back: union(a.union.back, b.union.back) },
    bytes: a.bytes + b.bytes,
  };
}
