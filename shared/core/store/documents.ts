/** A conditional replace must name the version. */
export interface Versioned<T> {
  doc: T;
  etag: string;
}

/** The watermark is Cosmos DB's `_ts` of the last write. */
export interface Watermarked<T> extends Versioned<T> {
  watermark: number;
}

/** `exists` is Cosmos DB's 409. */
export type Created = 'created' | 'exists';

/** `stale` is Cosmos DB's 412 or 404. */
export type Replaced = 'replaced' | 'stale';

/** Expected outcomes are answers; a store that is down, timed out or throttled past its retries throws. */
export interface Conditional<Doc, Key extends unknown[]> {
  read(...key: Key): Promise<Versioned<Doc> | null>;
  create(doc: Doc): Promise<Created>;
  replace(doc: Doc, etag: string): Promise<Replaced>;
}

/** One sentence a page can show: "kept in memory: lost on restart". */
export interface StoreSource {
  readonly source: string;
}

/** Counted by the adapter since it was built. */
export interface StoreStats {
  reads: number;
  writes: number;
  queries: number;
  /** From the response headers; the local Cosmos server reports 1 a call and memory 0. */
  requestUnits: number;
  /** Conflicts and stale versions are answers, not failures. */
  failures: number;
  /** A create that found the id there (409) or a replace of a version gone (412). */
  conflicts: number;
}
