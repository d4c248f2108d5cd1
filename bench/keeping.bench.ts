import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { cosmosContainer, ensureContainer } from '../adapters/cosmos/client';
import { cosmosStore } from '../adapters/cosmos/store';
import { rootFromEnvironment } from '../host/composition';
import { startLocalHost } from '../host/local/host';
import { COSMOS_EMULATOR_KEY, startAzurite, startCosmos } from '../host/local/services';
import { keeper } from '../shared/keeping/keep';
import { fixedClock } from '../shared/ports/clock';
import { syntheticMessages } from './keeping-load';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Store operations to keep 1,000 hits (50 visitors, 2 days), run as one host instance runs them: 16 messages at a time. */
async function operationsPer1000(endpoint: string, perRequest: number) {
  const container = cosmosContainer({ endpoint, auth: { key: COSMOS_EMULATOR_KEY }, database: `bench-${randomUUID().slice(0, 8)}`, container: 'activity' });
  await ensureContainer(container);
  const store = cosmosStore(container);
  const keep = keeper(store, fixedClock('2026-10-23T23:59:00Z'));
  const messages = syntheticMessages(1000, 50, 2, perRequest);
  for (let first = 0; first < messages.length; first += 16) await Promise.all(messages.slice(first, first + 16).map((message) => keep(message)));
  const cost = store.stats();
  const total = cost.reads + cost.writes + cost.queries;
  console.log(
    `  ${String(perRequest).padStart(3)} hits a request (${messages.length} messages): ${total} operations per 1,000 hits ` +
      `(${cost.reads} reads, ${cost.writes} writes, ${cost.queries} queries; ${(cost.reads / 1000).toFixed(2)} reads and ${(cost.writes / 1000).toFixed(2)} writes a hit; ${cost.requestUnits} RU as the local server reports them)`,
  );
}

/** Hits kept per second end to end on the local stack: POST /api/hits → Azurite → keep-hits → the local Cosmos server. */
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
  const root = rootFromEnvironment(env, { logger: quiet });
  await ensureContainer(cosmosContainer({ endpoint, auth: { key: COSMOS_EMULATOR_KEY }, database: env.COSMOS_DATABASE, container: 'activity' }));
  const host = await startLocalHost({ root, port: 0, timers: false, queueSettings: { maxPollingInterval: 100 } });
  try {
    const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
    const started = performance.now();
    for (let first = 0; first < hits; first += perRequest) {
      const body = Array.from({ length: perRequest }, (_, n) => ({ address: `203.0.${(first + n) % 7}.${(first + n) % 50}`, user_agent: agent, path: `/page-${n % 12}` }));
      const response = await fetch(`${host.url}/api/hits`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-ingest-key': env.INGEST_KEY }, body: JSON.stringify({ hits: body }) });
      if (response.status !== 202) throw new Error(`ingest answered ${response.status}`);
    }
    await host.drain(120_000);
    const seconds = (performance.now() - started) / 1000;
    const cost = root.store.stats();
    console.log(`  ${hits} hits in requests of ${perRequest}: ${(hits / seconds).toFixed(0)} hits/s kept end to end (${seconds.toFixed(2)} s; ${((cost.reads + cost.writes + cost.queries) / hits * 1000).toFixed(0)} store operations per 1,000 hits)`);
  } finally {
    await host.stop();
  }
}

/** `npm run bench keeping`: what keeping costs the store, and how fast the local stack keeps hits. */
export async function run(): Promise<void> {
  const azurite = await startAzurite();
  const cosmos = await startCosmos();
  try {
    console.log('store operations per 1,000 hits (50 visitors over 2 days), on the local Cosmos server:');
    for (const perRequest of [1, 10, 50]) await operationsPer1000(cosmos.endpoint, perRequest);
    console.log('end to end on the local stack (Azurite, the local Cosmos server, the local host):');
    await endToEnd(azurite.connectionString, cosmos.endpoint, 2000, 50);
    await endToEnd(azurite.connectionString, cosmos.endpoint, 500, 1);
  } finally {
    await cosmos.stop();
    await azurite.stop();
  }
}
