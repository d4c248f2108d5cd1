export interface Slice<T> {
  items: T[];
  upTo: number;
  caughtUp: boolean;
}

/**
 * Ends on a whole watermark: watermarks are seconds, so a page that stops inside one leaves it for the next slice.
 * So a slice's end says exactly which items it holds, and a run that dies can fold it again.
 */
export async function sliceOf<T extends { watermark: number }>(
  first: (limit: number) => Promise<T[]>,
  allTo: (upTo: number) => Promise<T[]>,
  limit: number,
  bound: number,
): Promise<Slice<T>> {
  const page = await first(limit);
  if (page.length < limit) return { items: page, upTo: bound, caughtUp: true };
  const low = page[0]!.watermark;
  const high = page[page.length - 1]!.watermark;
  if (low < high) return { items: page.filter((item) => item.watermark < high), upTo: high - 1, caughtUp: false };
  return { items: await allTo(high), upTo: high, caughtUp: high >= bound };
}
