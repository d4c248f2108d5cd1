import type { Conditional } from '../../shared/core/store/documents';
import type { Migration } from '../../shared/fold/migrations/runner';

/** An item the test migration moves from `old-<n>` to `new-<n>`, adding its value to the tally once. */
export interface Item {
  id: string;
  pk: string;
  kind: 'test-item';
  value: number;
}

/** The sum of the values moved, and the last slice it holds, so a slice run again adds nothing twice. */
export interface Tally {
  id: 'tally';
  pk: string;
  kind: 'test-tally';
  total: number;
  slice: number;
}

export interface ItemPorts {
  /** The old items after `after`, by id, at most `limit`. */
  oldAfter(after: string | null, limit: number): Promise<Item[]>;
  items: Conditional<Item, [id: string]>;
  tally: Conditional<Tally, []>;
}

/** A migration that both moves documents (idempotent creates) and adds (a sum), the two kinds of write a real one makes. */
export function tallyMigration(ports: ItemPorts, name = 'test-tally', pk = 'items'): Migration {
  return {
    name,
    async slice({ position, number, limit }) {
      const items = await ports.oldAfter(position, limit);
      for (const item of items) await ports.items.create({ ...item, id: item.id.replace('old-', 'new-') });
      const held = await ports.tally.read();
      if (held === null || held.doc.slice < number) {
        const total = (held?.doc.total ?? 0) + items.reduce((sum, item) => sum + item.value, 0);
        const next: Tally = { id: 'tally', pk, kind: 'test-tally', total, slice: number };
        const written = held === null ? await ports.tally.create(next) : await ports.tally.replace(next, held.etag);
        if (written !== 'created' && written !== 'replaced') throw new Error('the tally changed under the slice');
      }
      return items.length < limit ? null : items.at(-1)!.id;
    },
  };
}
