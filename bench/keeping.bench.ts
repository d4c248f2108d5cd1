import { rootFromEnvironment } from '../host/composition';
import { startLocalHost } from '../local/host';
import { startAzurite, startCosmos } from '../local/services';
import type { HitsMessage } from '../shared/core/message';
import { keeper } from '../test/support/keeper';
import { fixedClock } from '../shared/core/ports/clock';
import type { StoreStats } from '../shared/core/store';
import { syntheticMessages } from '../test/support/hits';
import { freshLocalStore, keepInBatches } from './local-store';
import { callsA, costed } from './report';
import { hostSettings, postHits, quiet } from './settings';
import { AGENTS, bodiesOf } from './site-traffic';
import { withServices } from './stack';

/** Issue 11's targets for the keep path, store calls a hit. */
const TARGET: Record<number, number> = { 1: 2, 50: 0.3 };

const costOf = (cost: StoreStats, hits: number) =>
  `${callsA(cost, hits, 'a hit')}; ${cost.conflicts} writes lost a race (409/412), ${cost.failures} failures`;

/** The keep path alone over a fixture, 16 messages at a time as one host instance runs them (host.json batchSize). */
async function keepPath(endpoint: string, fixture: string, messages: HitsMessage[], perMessage: number) {
  const { store } = await freshLocalStore(endpoint, { requestTimeoutMs: 5_000 });
  const keep = keeper(store, fixedClock('2026-10-23T23:59:00Z'));
  const hits = messages.reduce((sum, message) => sum + message.hits.length, 0);
  const { cost, ms } = await costed(store, () => keepInBatches(keep, messages, 16));
  const per = (cost.reads + cost.writes + cost.queries) / hits;
  const target = TARGET[perMessage];
  const verdict = target === undefined ? '' : `   target ≤ ${target} ${per <= target ? 'MET' : 'MISSED'}`;
  console.log(
    `  ${fixture}, ${String(perMessage).padStart(2)} hits a message (${messages.length} messages): ${costOf(cost, hits)}; ${((hits * 1000) / ms).toFixed(0)} hits/s${verdict}`,
  );
}

async function endToEnd(queueConnectionString: string, endpoint: string, hits: number, perRequest: number) {
  const { container, store } = await freshLocalStore(endpoint, { requestTimeoutMs: 5_000 });
  const env = hostSettings(queueConnectionString, endpoint, 'keeping', { COSMOS_DATABASE: container.database.id });
  const root = rootFromEnvironment(env, { logger: quiet, store });
  const host = await startLocalHost({ root, port: 0, timers: false, queueSettings: { maxPollingInterval: 100 } });
  try {
    // The 50 visitors of keepPath's first fixture.
    const sent = Array.from({ length: hits }, (_, i) => ({
      address: `203.0.${i % 7}.${i % 50}`,
      user_agent: AGENTS[0],
      path: `/page-${(i % perRequest) % 12}`,
    }));
    const { cost, ms } = await costed(store, async () => {
      await postHits(host.url, bodiesOf(sent, perRequest));
      await host.drain(300_000);
    });
    const seconds = ms / 1000;
    console.log(
      `  ${hits} hits, ${perRequest} a request: ${(hits / seconds).toFixed(0)} hits/s kept end to end (${seconds.toFixed(2)} s); ${costOf(cost, hits)}`,
    );
  } finally {
    await host.stop();
  }
}

/** `npm run bench keeping`: what the keep path (keep-hits) costs the store, and how fast the local stack keeps hits. */
export async function run(): Promise<void> {
  await withServices([startAzurite(), startCosmos()], async (azurite, cosmos) => {
    console.log(
      'the keep path alone (keeper: visitor records and facts), 16 messages at a time, on the local Cosmos server (store.stats(), 1 call = 1 read, write or query):',
    );
    for (const [fixture, hits, visitors, days] of [
      ['A: syntheticMessages(1000 hits, 50 visitors, 2 days) ~10 hits a visitor-day', 1000, 50, 2],
      ['B: syntheticMessages(5000 hits, 1000 visitors, 1 day)  ~5 hits a visitor-day', 5000, 1000, 1],
    ] as const)
      for (const perMessage of [1, 10, 50])
        await keepPath(cosmos.endpoint, fixture, syntheticMessages(hits, visitors, days, perMessage), perMessage);
    console.log('  (a visitor costs 1 read + 1 write per day per process: calls a hit ≈ 1/(hits a message) + 2/(hits a visitor-day))');
    console.log('end to end on the local stack (Azurite, the local Cosmos server, one local host in this process; no delay):');
    await endToEnd(azurite.connectionString, cosmos.endpoint, 2000, 50);
    await endToEnd(azurite.connectionString, cosmos.endpoint, 500, 1);
  });
}
