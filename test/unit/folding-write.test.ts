import { describe, expect, it } from 'vitest';
import { FoldRaced, type FoldedChange } from '../../shared/core/store/conditional-write';
import { conditionalWritesOnce, FOLD_WRITES_AT_ONCE } from '../../shared/fold/write';
import type { Created, Replaced } from '../../shared/core/store/documents';

interface Doc {
  id: string;
  n: number;
}

/** A slot that answers after a turn of the event loop, counting how many writes are in flight at once. */
function slot(answer: (doc: Doc) => Created | Replaced = () => 'created') {
  const written: string[] = [];
  let inFlight = 0;
  let most = 0;
  const write = async (doc: Doc) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight -= 1;
    written.push(doc.id);
    return answer(doc);
  };
  return {
    create: write as (doc: Doc) => Promise<Created>,
    replace: write as (doc: Doc, etag: string) => Promise<Replaced>,
    written,
    most: () => most,
  };
}

const changes = (count: number): FoldedChange<Doc>[] =>
  Array.from({ length: count }, (_, n) => ({
    before: n % 2 ? { id: `d${n}`, n: 0 } : null,
    etag: n % 2 ? 'e' : null,
    after: { id: `d${n}`, n: 1 },
  }));

describe("the fold's writes", () => {
  it(`writes every change, no more than ${FOLD_WRITES_AT_ONCE} at once, and skips one that changes nothing`, async () => {
    const store = slot();
    const unchanged = { before: { id: 'same', n: 1 }, etag: 'e', after: { id: 'same', n: 1 } };
    await conditionalWritesOnce(store, [...changes(200), unchanged], (change) => change.after.id);
    expect(new Set(store.written)).toEqual(new Set(changes(200).map((change) => change.after.id)));
    expect(store.most()).toBe(FOLD_WRITES_AT_ONCE);
  });

  it('stops at the first write that finds the document changed under it, and says which', async () => {
    const store = slot((doc) => (doc.id === 'd41' ? 'stale' : 'replaced'));
    await expect(conditionalWritesOnce(store, changes(200), (change) => `doc ${change.after.id}`)).rejects.toThrow(
      new FoldRaced('doc d41'),
    );
    // The lanes already writing finish; none starts another.
    expect(store.written.length).toBeLessThan(41 + 2 * FOLD_WRITES_AT_ONCE);
  });
});
