import type { Conditional, Created, Replaced } from './documents';

/** Where a conditional write goes: a create that cannot overwrite, and a replace of the exact version read. */
export type ConditionalSlot<Doc> = { create(doc: Doc): Promise<Created>; replace(doc: Doc, etag: string): Promise<Replaced> };

/**
 * The conditional write: a create when nothing was read (`etag` null), else a replace of the version read. Answers
 * whether it was written; false when another writer got there first (the create found the id there, or the version
 * read is no longer current). What a lost race means is the caller's: see retryConditionalWrite and
 * conditionalWriteOnce.
 */
export async function conditionalWrite<Doc>(slot: ConditionalSlot<Doc>, etag: string | null, doc: Doc): Promise<boolean> {
  const outcome = etag === null ? await slot.create(doc) : await slot.replace(doc, etag);
  return outcome === 'created' || outcome === 'replaced';
}

/** How many times a document is read again after another writer changed it first, before the invocation gives up. */
const ATTEMPTS = 25;

/** Thrown when a document kept changing under every attempt; the queue retries the message later. */
export class Contended extends Error {
  constructor(what: string) {
    super(`${what} kept changing under ${ATTEMPTS} attempts`);
  }
}

/** The document to write given the one read (null when there is none yet), or null when nothing needs writing. */
export type Decide<Doc> = (current: Doc | null) => Promise<Doc | null>;

/**
 * The keep path's conditional write: read, decide, write conditionally, and after a lost race read again and decide
 * again, up to ATTEMPTS times (then Contended). `decide` answers the document to write, or null when nothing needs
 * writing; it may be called more than once and must depend only on what it is given.
 */
export async function retryConditionalWrite<Doc, Key extends unknown[]>(
  slot: Conditional<Doc, Key>,
  key: Key,
  decide: Decide<Doc>,
  what: string,
): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const current = await slot.read(...key);
    const next = await decide(current?.doc ?? null);
    if (next === null) return;
    if (await conditionalWrite(slot, current?.etag ?? null, next)) return;
  }
  throw new Contended(what);
}

/** Thrown when a document the fold writes changed under it: another run got there first; the next run folds again. */
export class FoldRaced extends Error {
  constructor(what: string) {
    super(`${what} changed while the fold was writing it; the next run folds it again`);
  }
}

/** A document the fold read (null when there was none, with a null etag), and what it makes of it. */
export interface FoldedChange<Doc> {
  before: Doc | null;
  etag: string | null;
  after: Doc;
}

/**
 * The fold's conditional write: nothing when the document is unchanged, else one conditional write of the version
 * read; a lost race throws FoldRaced, which ends the part (another fold holds the state; the next run folds it again).
 */
export async function conditionalWriteOnce<Doc>(slot: ConditionalSlot<Doc>, change: FoldedChange<Doc>, what: string): Promise<void> {
  if (JSON.stringify(change.before) === JSON.stringify(change.after)) return;
  if (!(await conditionalWrite(slot, change.etag, change.after))) throw new FoldRaced(what);
}
