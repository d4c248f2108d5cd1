/** One slice of what was written between two marks: the items, the mark it ends on, and whether it reached the bound. */
export interface Slice<T> {
  items: T[];
  upTo: number;
  caughtUp: boolean;
}

/**
 * One slice of the items written after a mark and up to `bound`, at most about `limit`, ending on a whole mark: the
 * store's marks are seconds, so a page that stops inside one mark leaves that mark for the next slice, and a page all
 * of one mark reads the rest of that mark (as many as one second of writes holds). So a slice's end says exactly which
 * items it holds, and a run that dies can fold the same slice again.
 */
export async function sliceOf<T extends { mark: number }>(
  first: (limit: number) => Promise<T[]>,
  allTo: (upTo: number) => Promise<T[]>,
  limit: number,
  bound: number,
): Promise<Slice<T>> {
  const page = await first(limit);
  if (page.length < limit) return { items: page, upTo: bound, caughtUp: true };
  const low = page[0]!.mark;
  const high = page[page.length - 1]!.mark;
  if (low < high) return { items: page.filter((item) => item.mark < high), upTo: high - 1, caughtUp: false };
  return { items: await allTo(high), upTo: high, caughtUp: high >= bound };
}
