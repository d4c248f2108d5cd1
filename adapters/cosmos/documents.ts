import type { Container, SqlParameter } from '@azure/cosmos';
import type { Created, Watermarked, Replaced, StoreStats, Versioned } from '../../shared/core/store';
import { ONE_SITE, partitionKey, plainKey, type SiteScope } from '../../shared/core/sites/keys';

interface Keyed {
  id: string;
  pk: string;
}

const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number' ? error.code : undefined;

/** Cosmos DB's own fields (`_rid`, `_etag`, `_ts`) taken off, and the key the site's plain one. */
function own<T>(resource: Record<string, unknown>, scope: SiteScope): T {
  // A `SELECT VALUE` query answers numbers and strings, which have no fields to take off.
  if (typeof resource !== 'object' || resource === null) return resource;
  const doc = Object.fromEntries(Object.entries(resource).filter(([name]) => !name.startsWith('_')));
  if (typeof doc.pk === 'string') doc.pk = plainKey(scope, doc.pk);
  return doc as T;
}

/** A create answers `exists` on 409 and an If-Match replace `stale` on 412 or 404; anything else throws. */
export class CosmosDocuments {
  readonly counts: StoreStats = { reads: 0, writes: 0, queries: 0, requestUnits: 0, failures: 0, conflicts: 0 };

  constructor(
    private readonly container: Container,
    readonly scope: SiteScope = ONE_SITE,
  ) {}

  key(pk: string): string {
    return partitionKey(this.scope, pk);
  }

  private keyed<D extends Keyed>(doc: D): D {
    return { ...doc, pk: this.key(doc.pk) };
  }

  async read<T>(pk: string, id: string): Promise<Versioned<T> | null> {
    this.counts.reads += 1;
    const response = await this.counted(() => this.container.item(id, this.key(pk)).read<Record<string, unknown>>());
    if (response.statusCode === 404 || !response.resource) return null;
    return { doc: own<T>(response.resource, this.scope), etag: response.etag };
  }

  async create(doc: Keyed): Promise<Created> {
    this.counts.writes += 1;
    try {
      await this.counted(() => this.container.items.create(this.keyed(doc)));
      return 'created';
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
      this.counts.conflicts += 1;
      return 'exists';
    }
  }

  async replace(doc: Keyed, etag: string): Promise<Replaced> {
    this.counts.writes += 1;
    try {
      await this.counted(() =>
        this.container.item(doc.id, this.key(doc.pk)).replace(this.keyed(doc), { accessCondition: { type: 'IfMatch', condition: etag } }),
      );
      return 'replaced';
    } catch (error) {
      const status = statusOf(error);
      if (status !== 412 && status !== 404) throw error;
      this.counts.conflicts += 1;
      return 'stale';
    }
  }

  /** Answers the write's `_ts`: the store's clock now. */
  async stamp(doc: Keyed): Promise<number> {
    this.counts.writes += 1;
    const response = await this.counted(() => this.container.items.upsert<Record<string, unknown>>({ ...this.keyed(doc) }));
    const ts = response.resource?._ts;
    if (typeof ts !== 'number') throw new Error('the store answered a write without its _ts');
    return ts;
  }

  /** Across partitions unless one is named. */
  async query<T>(query: string, parameters: SqlParameter[], partitionKey?: string): Promise<T[]> {
    this.counts.queries += 1;
    const response = await this.counted(() =>
      this.container.items
        .query<Record<string, unknown>>({ query, parameters }, partitionKey === undefined ? {} : { partitionKey: this.key(partitionKey) })
        .fetchAll(),
    );
    return response.resources.map((resource) => own<T>(resource, this.scope));
  }

  async queryMarked<T>(query: string, parameters: SqlParameter[], partitionKey: string): Promise<Watermarked<T>[]> {
    this.counts.queries += 1;
    const response = await this.counted(() =>
      this.container.items.query<Record<string, unknown>>({ query, parameters }, { partitionKey: this.key(partitionKey) }).fetchAll(),
    );
    return response.resources.map((resource) => ({
      doc: own<T>(resource, this.scope),
      etag: String(resource._etag),
      watermark: Number(resource._ts),
    }));
  }

  /** A delete that finds nothing (404) is done. */
  async remove(pk: string, id: string): Promise<void> {
    this.counts.writes += 1;
    try {
      await this.counted(() => this.container.item(id, this.key(pk)).delete());
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  /** As its time-to-live would, for tests of what outlives the records. */
  async delete(pk: string, id: string): Promise<void> {
    await this.container.item(id, this.key(pk)).delete();
  }

  private async counted<R extends { requestCharge?: number }>(call: () => Promise<R>): Promise<R> {
    try {
      const response = await call();
      this.counts.requestUnits += response.requestCharge ?? 0;
      return response;
    } catch (error) {
      const status = statusOf(error);
      if (status !== 409 && status !== 412 && status !== 404) this.counts.failures += 1;
      throw error;
    }
  }
}
