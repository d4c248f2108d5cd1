import { describe, expect, it } from 'vitest';
import { MemoryDocuments, type Keyed } from '../../adapters/memory/documents';

/** A kept document with a number in it. */
const doc = (pk: string, id: string, n: number): Keyed => ({ pk, id, n }) as Keyed;

describe('a copy of the memory documents', () => {
  it('holds the same documents, versions and watermarks, and goes on apart from the original', () => {
    const original = new MemoryDocuments();
    original.create(doc('a', '1', 1));
    original.create(doc('b', '2', 2));
    const first = original.read<{ n: number }>('a', '1')!;
    expect(original.replace(doc('a', '1', 3), first.etag)).toBe('replaced');

    const copy = original.copy();
    expect(copy.lastMark()).toBe(original.lastMark());
    expect(copy.queryMarked(() => true)).toEqual(original.queryMarked(() => true));
    expect(copy.counts.writes).toBe(0);

    // A write to one is not seen by the other, and each takes its next watermark on from the same place.
    const current = copy.read<{ n: number }>('a', '1')!;
    expect(copy.replace(doc('a', '1', 4), current.etag)).toBe('replaced');
    expect(original.read<{ n: number }>('a', '1')!.doc.n).toBe(3);
    expect(original.replace(doc('a', '1', 5), current.etag)).toBe('replaced');
    expect(copy.read<{ n: number }>('a', '1')!.doc.n).toBe(4);
    expect(copy.lastMark()).toBe(original.lastMark());
    copy.create({ pk: 'c', id: '3' });
    expect(original.query(() => true, 'c')).toEqual([]);
  });
});
