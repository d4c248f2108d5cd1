export type Fields = Record<string, unknown>;

interface Entry {
  readonly key: string;
  readonly ts: number;
}

const isIndexable = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** Keys come in no set order, since the server's engine orders what it returns by `_rid` anyway. */
export class PartitionIndex<V> {
  private readonly current = new Map<string, Entry>();
  private readonly fields = new Map<string, Map<unknown, Set<string>>>();
  /** Stale entries are skipped, and dropped once they pile up. */
  private byTs: Entry[] = [];
  private stale = 0;

  constructor(
    private readonly members: ReadonlyMap<string, V>,
    private readonly fieldsOf: (value: V) => Fields,
  ) {
    for (const [key, value] of members) this.current.set(key, this.entryOf(key, value));
    this.byTs = [...this.current.values()].sort(byTs);
  }

  /** `previous` is its document until now. */
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

  removed(key: string, previous: V): void {
    if (!this.current.delete(key)) return;
    this.unfield(key, previous);
    this.stale += 1;
    if (this.stale > 1024 && this.stale > this.byTs.length / 2) this.compact();
  }

  /** Each value a string, number, boolean or null. */
  equal(field: string, values: readonly unknown[]): Set<string> {
    const index = this.fieldIndex(field);
    const found = new Set<string>();
    for (const value of values) for (const key of index.get(value) ?? []) found.add(key);
    return found;
  }

  /** Counted without gathering them. */
  equalSize(field: string, values: readonly unknown[]): number {
    const index = this.fieldIndex(field);
    return values.reduce<number>((sum, value) => sum + (index.get(value)?.size ?? 0), 0);
  }

  tsRange(range: TsRange): { from: number; to: number } {
    const from = lowerBound(this.byTs, range.low, range.lowInclusive);
    const to = lowerBound(this.byTs, range.high, !range.highInclusive);
    return { from, to: Math.max(from, to) };
  }

  /** Takes every key of the last whole second reached, stopping at `to`. */
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
    // `_ts` comes from the server's clock, so a write lands at the end unless the clock was set back.
    if (last === undefined || byTs(last, entry) <= 0) this.byTs.push(entry);
    else this.byTs.splice(upperBoundEntry(this.byTs, entry), 0, entry);
  }

  private compact(): void {
    this.byTs = this.byTs.filter((entry) => this.current.get(entry.key) === entry);
    this.stale = 0;
  }
}

/** Infinite where the filter sets none. */
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

// A document without a numeric `_ts` sorts first, so no bound selects it.
const tsKey = (ts: number) => (Number.isNaN(ts) ? Number.NEGATIVE_INFINITY : ts);
const byTs = (a: Entry, b: Entry) => tsKey(a.ts) - tsKey(b.ts);

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
