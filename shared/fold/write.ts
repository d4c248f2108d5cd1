import { boundedMap } from '../core/bounded-map';
import { conditionalWriteOnce, type ConditionalSlot, type FoldedChange } from '../core/store/conditional-write';

/** A busy minute changes thousands of documents, and sending them at once would meet Cosmos DB's 429s. */
export const FOLD_WRITES_AT_ONCE = 16;

/** The first failure stops the rest. */
export async function conditionalWritesOnce<Doc>(
  slot: ConditionalSlot<Doc>,
  changes: readonly FoldedChange<Doc>[],
  what: (change: FoldedChange<Doc>) => string,
): Promise<void> {
  await boundedMap(changes, FOLD_WRITES_AT_ONCE, (change) => conditionalWriteOnce(slot, change, what(change)));
}
