import type { Conditional } from '../store/documents';

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
 * Read, decide, write conditionally, and start again if another writer got there first: a create that finds the id
 * already there, or a replace of a version no longer current. `decide` answers the document to write, or null when
 * nothing needs writing; it may be called more than once and must depend only on what it is given.
 */
export async function change<Doc, Key extends unknown[]>(
  slot: Conditional<Doc, Key>,
  key: Key,
  decide: Decide<Doc>,
  what: string,
): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const current = await slot.read(...key);
    const next = await decide(current?.doc ?? null);
    if (next === null) return;
    const outcome = current ? await slot.replace(next, current.etag) : await slot.create(next);
    if (outcome === 'created' || outcome === 'replaced') return;
  }
  throw new Contended(what);
}
