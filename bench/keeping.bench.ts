import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { cosmosContainer, ensureContainer } from '../adapters/cosmos/client';
import { cosmosStore } from '../adapters/cosmos/store';
import { rootFromEnvironment } from '../host/composition';
import { startLocalHost } from '../host/local/host';
import { COSMOS_EMULATOR_KEY, startAzurite, startCosmos } from '../host/local/services';
import { keeper } from '../shared/keeping/keep';
import { fixedClock } from '../shared/ports/clock';
import type { Store } from '../shared/store';
import { syntheticMessages } from './keeping-load';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The store with every conditional write that lost its race counted (a 412 on replace, a 409 on create): each costs a read and a write again. */
function conflictsCounted<S extends Store>(store: S): S & { conflicts: () => number } {
  let conflicts = 0;
  const counted = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    const outcome = await write(...args);
    if (outcome === 'stale' || outcome === 'exists') conflicts += 1;
    return outcome;
  };
  const slot = <T extends { create: (...args: never[]) => Promise<unknown>; replace: (...args: never[]) => Promise<unknown> }>(one: T): T => ({ ...one, create: counted(one.create), replace: counted(one.replace) });
  return { ...store, records: slot(store.records), summary: slot(store.summary), activity: slot(store.activity), conflicts: () => conflicts };
}

/** What the store did for `hits` hits: operations per hit, and the writes that lost their race. */
function costOf(store: Store & { conflicts: () => number }, hits: number): string {
  const cost = store.stats();
  const per = (count: number) => (count / hits).toFixed(2);
  return `${per(cost.reads)} reads, ${per(cost.writes)} writes, ${per(cost.queries)} queries a hit; ${store.conflicts()} writes lost a race (412/409)`;
}

/** Store operations to keep 1,000 hits (50 visitors, 2 days), run as one host instance runs them: 16 messages at a time. */
async function operationsPer1000(endpoint: string, perRequest: number) {
  const container = cosmosContainer({ endpoint, auth: { key: COSMOS_EMULATOR_KEY }, database: `bench-${randomUUID().slice(0, 8)}`, container: 'activity' });
  await ensureContainer(container);
  const store = conflictsCounted(cosmosStore(container));
  const keep = keeper(store, fixedClock('2026-10-23T23:59:00Z'));
  const messages = syntheticMessages(1000, 50, 2, perRequest);
  const started = performance.now();
  for (let first = 0; first < messages.length; first += 16) await Promise.all(messages.slice(first, first + 16).map((message) => keep(message)));
  const seconds = (performance.now() - started) / 1000;
  const cost = store.stats();
  console.log(
    `  ${String(perRequest).padStart(3)} hits a message (${messages.length} messages, 16 at a time): ${cost.reads + cost.writes + cost.queries} operations per 1,000 hits ` +
      `(${costOf(store, 1000)}; ${cost.requestUnits} RU as the local server reports them); ${(1000 / seconds).toFixed(0)} hits/s kept`,
  );
}

/**
 * Hits kept per second end to end on the local stack: POST /api/hits → Azurite → keep-hits (16 messages at a time, as
 * host.json's batchSize) → the local Cosmos server. Eight clients post at once, so posting is not what is measured.
 */
async function endToEnd(queueConnectionString: string, endpoint: string, hits: number, perRequest: number) {
  const env = {
    AzureWebJobsStorage: queueConnectionString,
    HASH_KEY: 'bench-hash-key-0123456789abcdef',
    INGEST_KEY: 'bench-ingest-key-0123456789',
    OPERATOR_KEY: 'bench-operator-key-0123456789',
    HITS_QUEUE: `bench-${randomUUID().slice(0, 8)}`,
    COSMOS_ENDPOINT: endpoint,
    COSMOS_KEY: COSMOS_EMULATOR_KEY,
    COSMOS_DATABASE: `bench-${randomUUID().slice(0, 8)}`,
  };
  const container = cosmosContainer({ endpoint, auth: { key: COSMOS_EMULATOR_KEY }, database: env.COSMOS_DATABASE, container: 'activity' });
  await ensureContainer(container);
  const store = conflictsCounted(cosmosStore(container));
  const root = rootFromEnvironment(env, { logger: quiet, store });
  const host = await startLocalHost({ root, port: 0, timers: false, queueSettings: { maxPollingInterval: 100 } });
  try {
    const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
    const requests = Array.from({ length: hits / perRequest }, (_, request) => request * perRequest);
    const post = async (first: number) => {
      const body = Array.from({ length: perRequest }, (_, n) => ({ address: `203.0.${(first + n) % 7}.${(first + n) % 50}`, user_agent: agent, path: `/page-${n % 12}` }));
      const response = await fetch(`${host.url}/api/hits`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-ingest-key': env.INGEST_KEY }, body: JSON.stringify({ hits: body }) });
      if (response.status !== 202) throw new Error(`ingest answered ${response.status}`);
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let first = requests.shift(); first !== undefined; first = requests.shift()) await post(first);
    }));
    await host.drain(300_000);
    const seconds = (performance.now() - started) / 1000;
    const cost = store.stats();
    console.log(
      `  ${hits} hits, ${perRequest} a message: ${(hits / seconds).toFixed(0)} hits/s kept end to end (${seconds.toFixed(2)} s; ` +
        `${((cost.reads + cost.writes + cost.queries) / hits * 1000).toFixed(0)} store operations per 1,000 hits: ${costOf(store, hits)})`,
    );
  } finally {
    await host.stop();
  }
}

/** `npm run bench keeping`: what keeping costs the store, and how fast the local stack keeps hits. */
export async function run(): Promise<void> {
  const azurite = await startAzurite();
  const cosmos = await startCosmos();
  try {
    console.log('keeping alone, store operations per 1,000 hits (50 visitors over 2 days), on the local Cosmos server:');
    for (const perRequest of [1, 10, 50]) await operationsPer1000(cosmos.endpoint, perRequest);
    console.log('end to end on the local stack (Azurite, the local Cosmos server, the local host):');
    await endToEnd(azurite.connectionString, cosmos.endpoint, 2000, 50);
    await endToEnd(azurite.connectionString, cosmos.endpoint, 500, 1);
  } finally {
    await cosmos.stop();
    await azurite.stop();
  }
}
