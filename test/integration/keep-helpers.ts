import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { CosmosDocuments } from '../../adapters/cosmos/documents';
import { cosmosStore } from '../../adapters/cosmos/store';
import { unpackFact } from '../../adapters/cosmos/packed-facts';
import { COSMOS_EMULATOR_KEY } from '../../local/services';
import type { HitsMessage, QueuedHit } from '../../shared/core/message';
import type { Store } from '../../shared/core/store';
import { containerOf } from '../support/cosmos';

/** A container of the test's own on the shared local Cosmos server (or at `endpoint`), created, with its store. */
export async function freshCosmos(options: { endpoint?: string; database?: string } = {}) {
  const container = await containerOf({
    COSMOS_ENDPOINT: options.endpoint ?? inject('stack').cosmosEndpoint,
    COSMOS_KEY: COSMOS_EMULATOR_KEY,
    COSMOS_DATABASE: options.database ?? `keep-${randomUUID().slice(0, 12)}`,
  });
  const store = cosmosStore(container, { settleSeconds: SETTLE_SECONDS });
  return { container, store, documents: new CosmosDocuments(container) };
}

type Doc = Record<string, unknown> & { pk: string; id: string };

/** Every document in the container, sorted by partition and id, each fact's packed parts unpacked. */
export async function everything(documents: CosmosDocuments): Promise<Doc[]> {
  const all = (await documents.query<Doc>('SELECT * FROM c', [])).map((doc) => unpackFact(doc));
  return all.sort((a, b) => (a.pk === b.pk ? (a.id < b.id ? -1 : 1) : a.pk < b.pk ? -1 : 1));
}

/** How far behind the local server's clock the tests' folds read (see FOLD_SETTLE_SECONDS). */
export const SETTLE_SECONDS = 1;

/**
 * The documents without the store's watermarks (a fold's `folded_to` and `folded_days`, the fold state and lease, the
 * store's clock), which differ from run to run since they are the server's own times: for comparing what two runs kept
 * and counted.
 */
export const unmarked = (docs: Doc[]) =>
  docs
    .filter((doc) => doc.kind !== 'fold-state' && doc.kind !== 'store-clock' && doc.kind !== 'fold-lease')
    .map(({ folded_to: _folded, folded_days: _days, ...rest }) => rest);

/** A message of hits with an id of its own (or the one given). */
export const messageOf = (hits: QueuedHit[], id: string = randomUUID()): HitsMessage => ({ v: 1, id, hits });

type Write = (...args: unknown[]) => Promise<unknown>;

const WRITES = new Set(['create', 'replace']);

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** A copy of `ports` with every `create` and `replace` passed through `wrap`, in the ports it holds as well (the subjects'). */
function withWrites<T extends object>(ports: T, wrap: (write: Write) => Write): T {
  return Object.fromEntries(
    Object.entries(ports).map(([name, member]) => {
      if (typeof member === 'function') return [name, WRITES.has(name) ? wrap(member as Write) : member];
      return [name, isPlain(member) ? withWrites(member, wrap) : member];
    }),
  ) as T;
}

/**
 * The store with every write of every port counted, and the process made to fail right after write number `failAfter`
 * (the write itself lands), as a handler that dies between two writes would.
 */
export function failingAfter(store: Store, failAfter: number): Store & { writes(): number } {
  let writes = 0;
  const wrap =
    (write: Write): Write =>
    async (...args) => {
      const result = await write(...args);
      writes += 1;
      if (writes === failAfter) throw new Error(`injected failure after write ${writes}`);
      return result;
    };
  return { ...withWrites(store, wrap), writes: () => writes };
}

/** The store gone down right after write number `downAfter` (which lands): every later write throws. */
export function goneDownAfter(store: Store, downAfter: number): Store {
  let writes = 0;
  const wrap =
    (write: Write): Write =>
    async (...args) => {
      if (writes >= downAfter) throw new Error(`the store is down after write ${downAfter}`);
      writes += 1;
      return write(...args);
    };
  return withWrites(store, wrap);
}
