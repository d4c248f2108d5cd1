import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { cosmosContainer, ensureContainer } from '../../adapters/cosmos/client';
import { CosmosDocuments } from '../../adapters/cosmos/documents';
import { cosmosStore } from '../../adapters/cosmos/store';
import { COSMOS_EMULATOR_KEY } from '../../host/local/services';
import type { HitsMessage, QueuedHit } from '../../shared/hits/message';
import type { Store } from '../../shared/store';

/** A container of the test's own on the shared local Cosmos server (or at `endpoint`), created, with its store. */
export async function freshCosmos(options: { endpoint?: string; database?: string } = {}) {
  const container = cosmosContainer({
    endpoint: options.endpoint ?? inject('stack').cosmosEndpoint,
    auth: { key: COSMOS_EMULATOR_KEY },
    database: options.database ?? `keep-${randomUUID().slice(0, 12)}`,
    container: 'activity',
  });
  await ensureContainer(container);
  const store = cosmosStore(container);
  return { container, store, documents: new CosmosDocuments(container) };
}

type Doc = Record<string, unknown> & { pk: string; id: string };

/** Every document in the container, sorted by partition and id. */
export async function everything(documents: CosmosDocuments): Promise<Doc[]> {
  const all = await documents.query<Doc>('SELECT * FROM c', []);
  return all.sort((a, b) => (a.pk === b.pk ? (a.id < b.id ? -1 : 1) : a.pk < b.pk ? -1 : 1));
}

/** The documents without the receipts and the bookkeeping of which message applied what, for comparing counts alone. */
export const facts = (docs: Doc[]) =>
  docs.filter((doc) => doc.kind !== 'receipt').map(({ applied: _applied, pending: _pending, ...rest }) => rest);

/** A hashed hit as the queue carries it; the hashes are any 32 hex, as the keeper never reads them. */
export function queued(person: string | null, at: string, more: Partial<QueuedHit> = {}): QueuedHit {
  const hex = (label: string) => Buffer.from(label.padEnd(16, '.')).subarray(0, 16).toString('hex');
  return {
    at,
    token: hex(`t${person ?? 'self'}${at.slice(0, 10)}`),
    person: person === null ? null : hex(`p${person}`),
    network: '203.0.113.x',
    path: '/',
    store: 'site',
    bot: false,
    self: person === null,
    source: null,
    subject: null,
    ...more,
  };
}

/** A message of hits with an id of its own (or the one given). */
export const messageOf = (hits: QueuedHit[], id: string = randomUUID()): HitsMessage => ({ v: 1, id, hits });

/**
 * The store with every write counted, and the process made to fail right after write number `failAfter` (the write
 * itself lands), as a handler that dies between two writes would.
 */
export function failingAfter(store: Store, failAfter: number): Store & { writes(): number } {
  let writes = 0;
  const wrap = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    const result = await write(...args);
    writes += 1;
    if (writes === failAfter) throw new Error(`injected failure after write ${writes}`);
    return result;
  };
  return {
    ...store,
    records: { ...store.records, create: wrap(store.records.create), replace: wrap(store.records.replace) },
    summary: { ...store.summary, create: wrap(store.summary.create), replace: wrap(store.summary.replace) },
    activity: { ...store.activity, create: wrap(store.activity.create), replace: wrap(store.activity.replace) },
    receipts: { ...store.receipts, create: wrap(store.receipts.create) },
    writes: () => writes,
  };
}
