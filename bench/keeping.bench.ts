import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { cosmosContainer, ensureContainer } from '../adapters/cosmos/client';
import { cosmosStore } from '../adapters/cosmos/store';
import { rootFromEnvironment } from '../host/composition';
import { startLocalHost } from '../host/local/host';
import { COSMOS_EMULATOR_KEY, startAzurite, startCosmos } from '../host/local/services';
import type { HitsMessage } from '../shared/hits/message';
import { keeper } from '../test/support/keeper';
import { fixedClock } from '../shared/ports/clock';
import type { StoreStats } from '../shared/store';
import { syntheticMessages } from './keeping-load';
import { freshLocalStore } from './local-store';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The targets of issue 11 for the keep path, store calls a hit. */
const TARGET = { 1: 2, 50: 0.3 } as Record<number, number>;
/** What the design before facts measured (calls a hit), for comparison. */
const BEFORE = { 1: 5.71, 50: 1.28 } as Record<number, number>;

const callsOf = (cost: StoreStats) => cost.reads + cost.writes + cost.queries;

/** What the store did for `hits` hits: calls a hit, split, and the writes that lost their race. */
function costOf(cost: StoreStats, hits: number): string {
  const per = (count: number) => (count / hits).toFixed(3);
  return `${per(callsOf(cost))} calls a hit (${per(cost.reads)} reads, ${per(cost.writes)} writes, ${per(cost.queries)} queries); ${cost.conflicts} writes lost a race (409/412), ${cost.failures} failures`;
}

const freshStore = async (endpoint: string) => (await freshLocalStore(endpoint, { requestTimeoutMs: 5_000 })).store;

/** The keep path alone over a fixture, 16 messages at a time as one host instance runs them (host.json batchSize). */
async function keepPath(endpoint: string, fixture: string, messages: HitsMessage[], perMessage: number) {
  const store = await freshStore(endpoint);
  const keep = keeper(store, fixedClock('2026-10-23T23:59:00Z'));
  const hits = messages.reduce((sum, message) => sum + message.hits.length, 0);
  const started = performance.now();
  for (let first = 0; first < messages.length; first += 16) {
    const outcomes = await Promise.all(messages.slice(first, first + 16).map((message) => keep(message)));
    const failed = outcomes.find((outcome) => !outcome.ok);
    if (failed && !failed.ok) throw new Error(`keeping failed: ${failed.reason}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const cost = store.stats();
  const per = callsOf(cost) / hits;
  const target = TARGET[perMessage];
  const verdict = target === undefined ? '' : `   target ≤ ${target} (before: ${BEFORE[perMessage]}) ${per <= target ? 'MET' : 'MISSED'}`;
  console.log(
    `  ${fixture}, ${String(perMessage).padStart(2)} hits a message (${messages.length} messages): ${costOf(cost, hits)}; ${(hits / seconds).toFixed(0)} hits/s${verdict}`,
  );
}

/**
 * Hits kept per second end to end on the local stack: POST /api/hits → Azurite → keep-hits (16 messages at a time, as
 * host.json's batchSize) → the local Cosmos server, in this process. Eight clients post at once.
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
    FOLD_SETTLE_SECONDS: '1',
  };
  const container = cosmosContainer({ endpoint, auth: { key: COSMOS_EMULATOR_KEY }, database: env.COSMOS_DATABASE, container: 'activity' });
  await ensureContainer(container);
  const store = cosmosStore(container, { settleSeconds: 1 });
  const root = rootFromEnvironment(env, { logger: quiet, store });
  const host = await startLocalHost({ root, port: 0, timers: false, queueSettings: { maxPollingInterval: 100 } });
  try {
    const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
    const requests = Array.from({ length: hits / perRequest }, (_, request) => request * perRequest);
    // 50 visitors (addresses), each making many page loads: the visitors of keepPath's first fixture.
    const post = async (first: number) => {
      const body = Array.from({ length: perRequest }, (_, n) => ({
        address: `203.0.${(first + n) % 7}.${(first + n) % 50}`,
        user_agent: agent,
        path: `/page-${n % 12}`,
      }));
      const response = await fetch(`${host.url}/api/hits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ingest-key': env.INGEST_KEY },
        body: JSON.stringify({ hits: body }),
      });
      if (response.status !== 202) throw new Error(`ingest answered ${response.status}`);
    };
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let first = requests.shift(); first !== undefined; first = requests.shift()) await post(first);
      }),
    );
    await host.drain(300_000);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `  ${hits} hits, ${perRequest} a request: ${(hits / seconds).toFixed(0)} hits/s kept end to end (${seconds.toFixed(2)} s); ${costOf(store.stats(), hits)}`,
    );
  } finally {
    await host.stop();
  }
}

/** `npm run bench keeping`: what the keep path (keep-hits) costs the store, and how fast the local stack keeps hits. */
export async function run(): Promise<void> {
  const azurite = await startAzurite();
  const cosmos = await startCosmos();
  try {
    console.log(
      'the keep path alone (keeper: visitor records and facts), 16 messages at a time, on the local Cosmos server (store.stats(), 1 call = 1 read, write or query):',
    );
    const fixtures: Array<[string, (perRequest: number) => HitsMessage[]]> = [
      // The fixture the design before was measured on: each visitor ~10 page loads a day.
      [
        'A: syntheticMessages(1000 hits, 50 visitors, 2 days) ~10 hits a visitor-day',
        (perRequest) => syntheticMessages(1000, 50, 2, perRequest),
      ],
      // More visitors, fewer loads each: ~5 a visitor-day.
      [
        'B: syntheticMessages(5000 hits, 1000 visitors, 1 day)  ~5 hits a visitor-day',
        (perRequest) => syntheticMessages(5000, 1000, 1, perRequest),
      ],
    ];
    for (const [fixture, messagesOf] of fixtures)
      for (const perMessage of [1, 10, 50]) await keepPath(cosmos.endpoint, fixture, messagesOf(perMessage), perMessage);
    console.log('  (a visitor costs 1 read + 1 write per day per process: calls a hit ≈ 1/(hits a message) + 2/(hits a visitor-day))');
    console.log('end to end on the local stack (Azurite, the local Cosmos server, one local host in this process; no delay):');
    await endToEnd(azurite.connectionString, cosmos.endpoint, 2000, 50);
    await endToEnd(azurite.connectionString, cosmos.endpoint, 500, 1);
  } finally {
    await cosmos.stop();
    await azurite.stop();
  }
}
