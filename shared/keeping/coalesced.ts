import type { Conditional } from '../store/documents';
import { change, type Decide } from './change';

/** A change waiting for its document: what it decides, and how its invocation hears whether the write carrying it landed. */
interface Waiting<Doc> {
  decide: Decide<Doc>;
  what: string;
  landed: () => void;
  failed: (error: unknown) => void;
}

/** The decisions in turn, each on what the ones before it made: one document to write, or null when none changes it. */
const together = <Doc>(decisions: readonly Decide<Doc>[]): Decide<Doc> => async (current) => {
  let doc = current;
  let changed = false;
  for (const decide of decisions) {
    const next = await decide(doc);
    if (next !== null) [doc, changed] = [next, true];
  }
  return changed ? doc : null;
};

/**
 * Changes to one kind of document, coalesced per document in this process. While a conditional write of a document is
 * in flight, the changes other invocations want to make to it wait; then they all go in one read and one conditional
 * write, decided in turn as if they had taken turns (each still marks its own message id on the document). Each waiting
 * invocation is answered by the write that carries its change: it resolves when that write lands and throws when it
 * fails, so its message is retried. A hot document (the hour, the summary) then costs a read and a write per batch of
 * messages rather than per message. Other processes still race; the conditional write settles that.
 */
export class Coalesced<Doc, Key extends unknown[]> {
  /** Per document in flight, the changes waiting for the next write. */
  private readonly waiting = new Map<string, Waiting<Doc>[]>();

  constructor(private readonly slot: Conditional<Doc, Key>) {}

  /** Makes a change to the document at `key` (see change.ts for `decide`); resolves once the write carrying it has landed (or the document needed none), throws if it failed. */
  change(key: Key, decide: Decide<Doc>, what: string): Promise<void> {
    const document = JSON.stringify(key);
    return new Promise<void>((landed, failed) => {
      const queue = this.waiting.get(document);
      if (queue) {
        queue.push({ decide, what, landed, failed });
        return;
      }
      this.waiting.set(document, [{ decide, what, landed, failed }]);
      void this.write(document, key);
    });
  }

  /** Writes the document until nothing waits for it: each time, every change that queued up meanwhile. */
  private async write(document: string, key: Key): Promise<void> {
    const queue = this.waiting.get(document)!;
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        await change(this.slot, key, together(batch.map((one) => one.decide)), batch[0]!.what);
        for (const one of batch) one.landed();
      } catch (error) {
        for (const one of batch) one.failed(error);
      }
    }
    this.waiting.delete(document);
  }
}
