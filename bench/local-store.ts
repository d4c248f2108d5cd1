import { randomUUID } from 'node:crypto';
import { cosmosContainer, ensureContainer } from '../adapters/cosmos/client';
import { cosmosStore } from '../adapters/cosmos/store';
import { COSMOS_EMULATOR_KEY } from '../host/local/services';
import { countedAgain } from '../shared/folding/by-day';
import type { VisitorsSummary } from '../shared/store';
import { emptyVisitorsSummary } from '../shared/store/summary';

/**
 * A store on a fresh database of the local Cosmos server at `endpoint`, container made, folding 1 s behind the
 * server's clock (its writes land at once). Calls may take `requestTimeoutMs`: the local server scans where Azure reads
 * an index, so a bench's large reads are slow.
 */
export async function freshLocalStore(endpoint: string, options: { prefix?: string; requestTimeoutMs?: number } = {}) {
  const container = cosmosContainer({
    endpoint,
    auth: { key: COSMOS_EMULATOR_KEY },
    database: `${options.prefix ?? 'bench'}-${randomUUID().slice(0, 8)}`,
    container: 'activity',
    requestTimeoutMs: options.requestTimeoutMs ?? 600_000,
  });
  await ensureContainer(container);
  return { container, store: cosmosStore(container, { settleSeconds: 1 }) };
}

/** The visitors summary a fold of the records would hold, from the people and the scanners first counted on each day. */
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
