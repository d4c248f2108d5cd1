import type { Conditional, Created, Replaced } from './documents';
import { sameJson } from '../same-json';

export type ConditionalSlot<Doc> = { create(doc: Doc): Promise<Created>; replace(doc: Doc, etag: string): Promise<Replaced> };

/**
 * Creates when nothing was read, else replaces the version read; false when another writer got there first.
 * The caller decides what a lost race means: see retryConditionalWrite and conditionalWriteOnce.
 */
export async function conditionalWrite<Doc>(slot: ConditionalSlot<Doc>, etag: string | null, doc: Doc): Promise<boolean> {
  const outcome = etag === null ? await slot.create(doc) : await slot.replace(doc, etag);
  return outcome === 'created' || outcome === 'replaced';
}

/** Reads again after a lost race at most this often before giving up. */
const ATTEMPTS = 25;

/** The queue retries the message later. */
export class Contended extends Error {
  constructor(what: string) {
    super(`${what} kept changing under ${ATTEMPTS} attempts`);
  }
}

/** Null when nothing needs writing. */
export type Decide<Doc> = (current: Doc | null) => Promise<Doc | null>;

/** `decide` may run more than once, so it must depend only on what it is given. */
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

/** Another run got there first; the next run folds again. */
export class FoldRaced extends Error {
  constructor(what: string) {
    super(`${what} changed while the fold was writing it; the next run folds it again`);
  }
}

/** A null document has a null etag. */
export interface FoldedChange<Doc> {
  before: Doc | null;
  etag: string | null;
  after: Doc;
}

/** Writes nothing when unchanged; a lost race throws FoldRaced, which ends the part. */
export async function conditionalWriteOnce<Doc>(slot: ConditionalSlot<Doc>, change: FoldedChange<Doc>, what: string): Promise<void> {
  if (sameJson(change.before, change.after)) return;
  if (!(await conditionalWrite(slot, change.etag, change.after))) throw new FoldRaced(what);
}
