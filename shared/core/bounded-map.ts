/** Runs `work` on the items in order, `lanes` at once; the first failure stops new items and is thrown. */
export async function boundedMap<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      try {
        await work(items[next++]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
}
