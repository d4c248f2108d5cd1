import { randomUUID } from 'node:crypto';
import { BulkOperationType, type Container } from '@azure/cosmos';
import { cosmosContainer, ensureContainer } from '../adapters/cosmos/client';
import { cosmosStore } from '../adapters/cosmos/store';
import { COSMOS_EMULATOR_KEY } from '../local/services';
import { countedAgain } from '../shared/fold/by-day';
import type { HitsMessage } from '../shared/core/message';
import type { KeepOutcome } from '../shared/keep/keep';
import type { VisitorsSummary } from '../shared/core/store';
import { emptyVisitorsSummary } from '../shared/core/store/summary';

/** The `activity` container of `database` on the local Cosmos server; a bench's large reads are slow there. */
export const localContainer = (endpoint: string, database: string, requestTimeoutMs = 600_000): Container =>
  cosmosContainer({ endpoint, auth: { key: COSMOS_EMULATOR_KEY }, database, container: 'activity', requestTimeoutMs });

/** A store on a container, folding 1 s behind the server's clock (its writes land at once). */
export const localStore = (container: Container) => cosmosStore(container, { settleSeconds: 1 });

export async function freshLocalStore(endpoint: string, options: { prefix?: string; requestTimeoutMs?: number } = {}) {
  const container = localContainer(endpoint, `${options.prefix ?? 'bench'}-${randomUUID().slice(0, 8)}`, options.requestTimeoutMs);
  await ensureContainer(container);
  return { container, store: localStore(container) };
}

/** Upserts `docs` in batches of 100, four at a time, a batch whose answer was lost sent again; answers how many. */
export async function bulkUpsert(container: Container, docs: Iterable<{ id: string; pk: string }>): Promise<number> {
  const source = docs[Symbol.iterator]();
  const next = () => Array.from({ length: 100 }, () => source.next()).flatMap((item) => (item.done ? [] : [item.value]));
  const send = async (batch: Array<{ id: string; pk: string }>) => {
    const results = await container.items.bulk(batch.map((resourceBody) => ({ operationType: BulkOperationType.Upsert, resourceBody })));
    const failed = results.filter((result) => result.statusCode >= 300);
    if (failed.length > 0) throw new Error(`${failed.length} documents were not written (status ${failed[0]!.statusCode})`);
    return batch.length;
  };
  const upsert = (batch: Array<{ id: string; pk: string }>, attempts = 5): Promise<number> =>
    send(batch).catch((error: Error) => (attempts > 1 ? upsert(batch, attempts - 1) : Promise.reject(error)));
  const lane = async () => {
    let written = 0;
    for (let batch = next(); batch.length > 0; batch = next()) written += await upsert(batch);
    return written;
  };
  return (await Promise.all([lane(), lane(), lane(), lane()])).reduce((sum, n) => sum + n, 0);
}

/** The visitors summary a fold would hold, from the people and scanners first counted on each day. */
export function visitorsSummaryOf(people: Record<string, number>, scanners: Record<string, number>): VisitorsSummary {
  const counted = { people: countedAgain({}, Object.entries(people)), scanners: countedAgain({}, Object.entries(scanners)) };
  return {
    ...emptyVisitorsSummary(),
    people_all_time: counted.people.total,
    scanners_left_out: counted.scanners.total,
    counted_from: counted.people.first,
    people_new_by_day: counted.people.byDay,
    scanners_by_day: counted.scanners.byDay,
  };
}

/** Keeps the messages `atOnce` at a time, as one host instance takes a batch; throws on a failure. */
export async function keepInBatches(
  keep: (message: HitsMessage) => Promise<KeepOutcome>,
  messages: readonly HitsMessage[],
  atOnce: number,
) {
  for (let first = 0; first < messages.length; first += atOnce)
    for (const outcome of await Promise.all(messages.slice(first, first + atOnce).map((message) => keep(message))))
      if (!outcome.ok) throw new Error(`keeping failed: ${outcome.reason}`);
}
