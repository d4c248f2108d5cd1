/** A document as it was read, with the version a conditional replace must name. */
export interface Versioned<T> {
  doc: T;
  etag: string;
}

/** A create either wrote the document or found one with its id already there (Cosmos DB's 409). */
export type Created = 'created' | 'exists';

/** A replace either wrote the document or found it changed or gone since it was read (Cosmos DB's 412 or 404). */
export type Replaced = 'replaced' | 'stale';

/**
 * Conditional writes on one kind of document: the only writes keeping makes, so every write is either a create that
 * cannot overwrite or a replace of the exact version read. Expected outcomes (already there, changed since read) are
 * answers; a store that cannot answer (down, timed out, throttled past its retries) throws.
 */
export interface Conditional<Doc, Key extends unknown[]> {
  read(...key: Key): Promise<Versioned<Doc> | null>;
  create(doc: Doc): Promise<Created>;
  replace(doc: Doc, etag: string): Promise<Replaced>;
}

/**
 * The messages already applied to a document, by message id, each with when it was applied (epoch seconds). A document
 * counted per hit carries it so a message delivered again, or retried after a failure, is applied once; an entry is
 * pruned once its message's receipt shows the message is finished (see shared/keeping/applied.ts).
 */
export type Applied = Record<string, number>;

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
}
