/** A document's fields as the local Cosmos server keeps them. */
export type Fields = Record<string, unknown>;

/** One write of one document, with its `_ts`. */
interface Entry {
  readonly key: string;
  readonly ts: number;
}

const isIndexable = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * One partition's indexes, as Cosmos DB keeps them for every path: each field's values (built on the first lookup of
 * that field) and `_ts` in order. Every write of the partition is told here. Answers are keys in no set order: the
 * server's engine orders what it returns by `_rid` (or ORDER BY, ties by `_rid`) whatever order it is handed.
 */
export class PartitionIndex<V> {
  private readonly current = new Map<string, Entry>();
  private readonly fields = new Map<string, Map<unknown, Set<string>>>();
  /** Entries by `_ts`; an entry no longer `current` is stale and skipped, and dropped once they pile up. */
  private byTs: Entry[] = [];
  private stale = 0;

  constructor(
    private readonly members: ReadonlyMap<string, V>,
    private readonly fieldsOf: (value: V) => Fields,
  ) {
    for (const [key, value] of members) this.current.set(key, this.entryOf(key, value));
    this.byTs = [...this.current.values()].sort(byTs);
  }

  /** A key written, new or again (`previous`, its document until now). */
  added(key: string, value: V, previous: V | undefined): void {
    const was = this.current.get(key);
    if (was !== undefined && previous !== undefined) this.unfield(key, previous);
    if (was !== undefined) this.stale += 1;
    const entry = this.entryOf(key, value);
    this.current.set(key, entry);
    const fields = this.fieldsOf(value);
    for (const [field, values] of this.fields) if (isIndexable(fields[field])) keysOf(values, fields[field]).add(key);
    this.insertByTs(entry);
  }

  /** A key deleted. */
  removed(key: string, previous: V): void {
    if (!this.current.delete(key)) return;
    this.unfield(key, previous);
    this.stale += 1;
    if (this.stale > 1024 && this.stale > this.byTs.length / 2) this.compact();
  }

  /** The keys whose `field` equals one of `values` (each a string, number, boolean or null). */
  equal(field: string, values: readonly unknown[]): Set<string> {
    const index = this.fieldIndex(field);
    const found = new Set<string>();
    for (const value of values) for (const key of index.get(value) ?? []) found.add(key);
    return found;
  }

  /** How many keys `equal` would answer, without gathering them. */
  equalSize(field: string, values: readonly unknown[]): number {
    const index = this.fieldIndex(field);
    return values.reduce<number>((sum, value) => sum + (index.get(value)?.size ?? 0), 0);
  }

  /** Positions in `_ts` order of the first entry above `low` (or at it, inclusive) and past the last under `high`. */
  tsRange(range: TsRange): { from: number; to: number } {
    const from = lowerBound(this.byTs, range.low, range.lowInclusive);
    const to = lowerBound(this.byTs, range.high, !range.highInclusive);
    return { from, to: Math.max(from, to) };
  }

  /**
   * The keys at positions [from, …) in `_ts` order: at least `atLeast` of them when there are, and then every key of
   * the last `_ts` taken (whole seconds), stopping at `to`. Answers the keys and the position it stopped at.
   */
  tsSlice(from: number, to: number, atLeast: number): { keys: string[]; next: number } {
    const keys: string[] = [];
    let at = from;
    let lastTs: number | undefined;
    for (; at < to; at += 1) {
      const entry = this.byTs[at]!;
      if (keys.length >= atLeast && entry.ts !== lastTs) break;
      if (this.current.get(entry.key) !== entry) continue;
      keys.push(entry.key);
      lastTs = entry.ts;
    }
    return { keys, next: at };
  }

  private entryOf(key: string, value: V): Entry {
    const ts = this.fieldsOf(value)._ts;
    return { key, ts: typeof ts === 'number' ? ts : Number.NaN };
  }

  private fieldIndex(field: string): Map<unknown, Set<string>> {
    let index = this.fields.get(field);
    if (index) return index;
    index = new Map();
    for (const [key, value] of this.members) {
      const fieldValue = this.fieldsOf(value)[field];
      if (isIndexable(fieldValue)) keysOf(index, fieldValue).add(key);
    }
    this.fields.set(field, index);
    return index;
  }

  private unfield(key: string, previous: V): void {
    const fields = this.fieldsOf(previous);
    for (const [field, values] of this.fields) {
      const keys = values.get(fields[field]);
      keys?.delete(key);
      if (keys?.size === 0) values.delete(fields[field]);
    }
  }

  private insertByTs(entry: Entry): void {
    const last = this.byTs[this.byTs.length - 1];
    // The server stamps `_ts` from its clock, so a write lands at the end but for a clock set back.
    if (last === undefined || byTs(last, entry) <= 0) this.byTs.push(entry);
    else this.byTs.splice(upperBoundEntry(this.byTs, entry), 0, entry);
  }

  private compact(): void {
    this.byTs = this.byTs.filter((entry) => this.current.get(entry.key) === entry);
    this.stale = 0;
  }
}

/** The `_ts` bounds a query's filter sets (infinite where it sets none). */
export interface TsRange {
  low: number;
  lowInclusive: boolean;
  high: number;
  highInclusive: boolean;
}

function keysOf(index: Map<unknown, Set<string>>, value: unknown): Set<string> {
  let keys = index.get(value);
  if (!keys) index.set(value, (keys = new Set()));
  return keys;
}

// A document without a numeric `_ts` (NaN) sorts first: no `_ts` bound selects it, as none would compare true.
const tsKey = (ts: number) => (Number.isNaN(ts) ? Number.NEGATIVE_INFINITY : ts);
const byTs = (a: Entry, b: Entry) => tsKey(a.ts) - tsKey(b.ts);

/** The first position whose `_ts` is above `ts` (or at it, when `inclusive`). */
function lowerBound(entries: readonly Entry[], ts: number, inclusive: boolean): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const at = tsKey(entries[mid]!.ts);
    if (at < ts || (!inclusive && at === ts)) low = mid + 1;
    else high = mid;
  }
  return low;
}

function upperBoundEntry(entries: readonly Entry[], entry: Entry): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byTs(entries[mid]!, entry) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
