import type { Created, Watermarked, Replaced, StoreStats, Versioned } from '../../shared/core/store';

export interface Keyed {
  id: string;
  pk: string;
}

interface Entry {
  json: string;
  /** Parsed on a query's first look, once; callers only ever get copies. */
  parsed?: unknown;
  etag: string;
  /** The memory store's `_ts`. */
  watermark: number;
}

/**
 * Cosmos DB's conditional semantics in memory; a write is seen at once, so the settled watermark is the last one.
 * Copies go in and out, so no caller can change a kept document without a write.
 */
export class MemoryDocuments {
  private readonly partitions = new Map<string, Map<string, Entry>>();
  private version = 0;
  readonly counts: StoreStats = { reads: 0, writes: 0, queries: 0, requestUnits: 0, failures: 0, conflicts: 0 };

  read<T>(pk: string, id: string): Versioned<T> | null {
    this.counts.reads += 1;
    const kept = this.partitions.get(pk)?.get(id);
    return kept ? { doc: JSON.parse(kept.json) as T, etag: kept.etag } : null;
  }

  create(doc: Keyed): Created {
    this.counts.writes += 1;
    const partition = this.partition(doc.pk);
    if (partition.has(doc.id)) {
      this.counts.conflicts += 1;
      return 'exists';
    }
    partition.set(doc.id, this.entry(doc));
    return 'created';
  }

  replace(doc: Keyed, etag: string): Replaced {
    this.counts.writes += 1;
    const partition = this.partition(doc.pk);
    if (partition.get(doc.id)?.etag !== etag) {
      this.counts.conflicts += 1;
      return 'stale';
    }
    partition.set(doc.id, this.entry(doc));
    return 'replaced';
  }

  /** Every write at or before it is seen. */
  lastMark(): number {
    return this.version;
  }

  query<T>(where: (doc: T) => boolean, pk?: string): T[] {
    return this.queryMarked(where, pk).map((found) => found.doc);
  }

  queryMarked<T>(where: (doc: T, watermark: number) => boolean, pk?: string): Watermarked<T>[] {
    this.counts.queries += 1;
    const partitions = pk === undefined ? [...this.partitions.values()] : [this.partitions.get(pk) ?? new Map<string, Entry>()];
    const found: Watermarked<T>[] = [];
    for (const partition of partitions) {
      for (const kept of partition.values()) {
        kept.parsed ??= JSON.parse(kept.json);
        if (where(kept.parsed as T, kept.watermark))
          found.push({ doc: JSON.parse(kept.json) as T, etag: kept.etag, watermark: kept.watermark });
      }
    }
    return found;
  }

  /** As a restored backup would; its counts start at 0. */
  copy(): MemoryDocuments {
    const copy = new MemoryDocuments();
    copy.version = this.version;
    for (const [pk, partition] of this.partitions) {
      copy.partitions.set(pk, new Map([...partition].map(([id, kept]) => [id, { ...kept, parsed: undefined }])));
    }
    return copy;
  }

  /** As its time-to-live would. */
  delete(pk: string, id: string): void {
    this.partitions.get(pk)?.delete(id);
  }

  private partition(pk: string) {
    let partition = this.partitions.get(pk);
    if (!partition) this.partitions.set(pk, (partition = new Map<string, Entry>()));
    return partition;
  }

  private entry(doc: Keyed): Entry {
    this.version += 1;
    const json = JSON.stringify(doc);
    return { json, etag: `"${this.version}"`, watermark: this.version };
  }
}
