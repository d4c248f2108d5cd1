import { inLanes } from '../core/lanes';
import { conditionalWriteOnce, type ConditionalSlot, type FoldedChange } from '../core/store/conditional-write';

/**
 * How many of one run's writes are in flight at once: a minute of busy traffic changes thousands of documents, and
 * sending them all at once would open as many connections and spend the container's request units in one burst
 * (Cosmos DB answers such a burst with 429s).
 */
export const FOLD_WRITES_AT_ONCE = 16;

/** Writes every change as conditionalWriteOnce does, FOLD_WRITES_AT_ONCE at a time; the first failure stops the rest. */
export async function conditionalWritesOnce<Doc>(
  slot: ConditionalSlot<Doc>,
  changes: readonly FoldedChange<Doc>[],
  what: (change: FoldedChange<Doc>) => string,
): Promise<void> {
  await inLanes(changes, FOLD_WRITES_AT_ONCE, (change) => conditionalWriteOnce(slot, change, what(change)));
}
