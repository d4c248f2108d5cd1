/** A document as it was read, with the version a conditional replace must name. */
export interface Versioned<T> {
  doc: T;
  etag: string;
}

/** A document read with its version and the store's mark of its last write (Cosmos DB's `_ts`), for the fold. */
export interface Marked<T> extends Versioned<T> {
  mark: number;
}

/** A create either wrote the document or found one with its id already there (Cosmos DB's 409). */
export type Created = 'created' | 'exists';

/** A replace either wrote the document or found it changed or gone since it was read (Cosmos DB's 412 or 404). */
export type Replaced = 'replaced' | 'stale';

/**
 * Conditional writes on one kind of document: a create that cannot overwrite or a replace of the exact version read.
 * Expected outcomes (already there, changed since read) are answers; a store that cannot answer (down, timed out,
 * throttled past its retries) throws.
 */
export interface Conditional<Doc, Key extends unknown[]> {
  read(...key: Key): Promise<Versioned<Doc> | null>;
  create(doc: Doc): Promise<Created>;
  replace(doc: Doc, etag: string): Promise<Replaced>;
}

/** Where a store keeps what it keeps, in one sentence a page can show ("kept in memory: lost on restart"). */
export interface StoreSource {
  readonly source: string;
}

/** What a store's operations have cost since it was built: counted by the adapter, request units where reported. */
export interface StoreStats {
  reads: number;
  writes: number;
  queries: number;
  /** Request units from the response headers (the local Cosmos server reports 1 per call; memory reports 0). */
  requestUnits: number;
  /** Calls that threw (store down, timed out). Conflicts and stale versions are answers, not failures. */
  failures: number;
  /** Writes that lost a race: a create that found the id there (409) or a replace of a version gone (412). */
  conflicts: number;
}
