import type { Created, Replaced } from '../store/documents';

/** Thrown when a document the fold writes changed under it: another run got there first; the next run folds again. */
export class FoldRaced extends Error {
  constructor(what: string) {
    super(`${what} changed while the fold was writing it; the next run folds it again`);
  }
}

/** A document the fold read (null when there was none), and what it makes of it. */
export interface Rewrite<Doc> {
  before: Doc | null;
  etag: string | null;
  after: Doc;
}

/** Writes a document the fold changed: a create when there was none, else a replace of the version read. */
export async function rewrite<Doc>(
  slot: { create(doc: Doc): Promise<Created>; replace(doc: Doc, etag: string): Promise<Replaced> },
  change: Rewrite<Doc>,
  what: string,
): Promise<void> {
  if (JSON.stringify(change.before) === JSON.stringify(change.after)) return;
  const outcome = change.etag === null ? await slot.create(change.after) : await slot.replace(change.after, change.etag);
  if (outcome === 'exists' || outcome === 'stale') throw new FoldRaced(what);
}
