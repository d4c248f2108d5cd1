import type { Created, Replaced, StoreStats, Versioned } from '../../shared/store';

/** A document with the two fields every kept document has: its partition and its id. */
export interface Keyed {
  id: string;
  pk: string;
}

/**
 * Documents in this process's memory with the conditional semantics of Cosmos DB: a create of an id already there
 * answers `exists`, a replace of a version no longer current answers `stale`. Copies go in and out, so no caller can
 * change a kept document without a write.
 */
export class MemoryDocuments {
  private readonly partitions = new Map<string, Map<string, { json: string; etag: string }>>();
  private version = 0;
  readonly counts: StoreStats = { reads: 0, writes: 0, queries: 0, requestUnits: 0, failures: 0 };

  read<T>(pk: string, id: string): Versioned<T> | null {
    this.counts.reads += 1;
    const kept = this.partitions.get(pk)?.get(id);
    return kept ? { doc: JSON.parse(kept.json) as T, etag: kept.etag } : null;
  }

  create(doc: Keyed): Created {
    this.counts.writes += 1;
    const partition = this.partition(doc.pk);
    if (partition.has(doc.id)) return 'exists';
    partition.set(doc.id, this.entry(doc));
    return 'created';
  }

  replace(doc: Keyed, etag: string): Replaced {
    this.counts.writes += 1;
    const partition = this.partition(doc.pk);
    if (partition.get(doc.id)?.etag !== etag) return 'stale';
    partition.set(doc.id, this.entry(doc));
    return 'replaced';
  }

  /** Every document for which `where` holds, across partitions; one query. */
  query<T>(where: (doc: T) => boolean): T[] {
    this.counts.queries += 1;
    const found: T[] = [];
    for (const partition of this.partitions.values()) {
      for (const kept of partition.values()) {
        const doc = JSON.parse(kept.json) as T;
        if (where(doc)) found.push(doc);
      }
    }
    return found;
  }

  private partition(pk: string) {
    let partition = this.partitions.get(pk);
    if (!partition) this.partitions.set(pk, (partition = new Map()));
    return partition;
  }

  private entry(doc: Keyed) {
    this.version += 1;
    return { json: JSON.stringify(doc), etag: `"${this.version}"` };
  }
}
