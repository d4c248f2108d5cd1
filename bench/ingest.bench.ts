import { performance } from 'node:perf_hooks';
import { QueueClient } from '@azure/storage-queue';
import { rootFromEnvironment } from '../host/composition';
import { startLocalHost } from '../host/local/host';
import { startAzurite } from '../host/local/services';
import { accepted } from '../host/http/answer';
import { ingestRead, serverHits } from '../host/http/ingest';
import { receiveServerHits } from '../shared/ingest/receive';
import { hostingNetworks } from '../adapters/files/networks';
import { jsonRequest } from '../test/support/import-rig';
import { DATA_CENTRES, PEOPLES_NETWORKS } from '../test/support/networks';
import { AGENTS } from '../test/support/http';
import { memoryStore } from '../adapters/memory/store';
import { hostSettings, KEYS, postHits, quiet } from './settings';

const agents = [AGENTS.chromeWindows, AGENTS.firefoxLinux, AGENTS.safariIphone, AGENTS.googlebot];

const NO_STORE = 'http://127.0.0.1:1';

/** Ingest reads a day's secret once a process and keeps it: a store in memory is all it asks of one here. */
const secretsOnly = () => memoryStore();

const body = (count: number, offset: number) =>
  JSON.stringify({
    hits: Array.from({ length: count }, (_, i) => ({
      address: `203.0.${(offset + i) % 250}.${(offset * 7 + i) % 250}`,
      user_agent: agents[i % agents.length],
      path: `/articles/${i % 40}?utm_source=x`,
      referrer: 'https://www.linkedin.com/feed/',
      page_load: true,
    })),
  });

/** The ingest handler in-process (queue faked), the hosting-network lookup, and hits/s through the local host into Azurite. */
export async function run(): Promise<void> {
  let sent = 0;
  const root = rootFromEnvironment(hostSettings('UseDevelopmentStorage=true', NO_STORE, 'ingest'), {
    hitQueue: { sendAll: async (messages) => ((sent += messages.length), { ok: true }) },
    logger: quiet,
    store: secretsOnly(),
  });
  const headers = { 'x-ingest-key': KEYS.INGEST_KEY };
  const receive = (read: Parameters<typeof receiveServerHits>[0]) => receiveServerHits(read, root.receive);
  const ingest = async (texts: readonly string[]) => {
    const started = performance.now();
    for (const text of texts) await ingestRead(jsonRequest(text, headers), root.receive, serverHits, receive, accepted);
    return ((performance.now() - started) * 1000) / texts.length;
  };
  const perRequest = 100;
  const texts = Array.from({ length: 200 }, (_, i) => body(perRequest, i));
  await ingest(texts.slice(0, 20));
  const sentBefore = sent;
  const rounds: number[] = [];
  for (let round = 0; round < 3; round += 1) rounds.push((await ingest(texts)) / perRequest);
  console.log(
    `in-process ingest (queue faked): ${Math.min(...rounds).toFixed(1)} µs per hit over ${texts.length * perRequest} hits in batches of ${perRequest}, the best of 3 rounds (${rounds.map((us) => us.toFixed(1)).join(', ')}; ${(sent - sentBefore) / 3} messages a round)`,
  );
  const table = hostingNetworks();
  const addresses = [...DATA_CENTRES, ...PEOPLES_NETWORKS].map(([, address]) => address);
  for (let i = 0; i < 100_000; i += 1) table.hostingAsn(addresses[i % addresses.length]!);
  const lookupStart = performance.now();
  for (let i = 0; i < 1_000_000; i += 1) table.hostingAsn(addresses[i % addresses.length]!);
  console.log(
    `the hosting-network lookup alone: ${((performance.now() - lookupStart) / 1000).toFixed(2)} µs per address (${table.header.ipv4} IPv4 and ${table.header.ipv6} IPv6 ranges)`,
  );
  const single = await ingest(Array.from({ length: 2000 }, (_, i) => body(1, i)));
  console.log(`in-process ingest (queue faked), one hit per request: ${single.toFixed(1)} µs per request`);
  const azurite = await startAzurite();
  const settings = hostSettings(azurite.connectionString, NO_STORE, 'ingest');
  await new QueueClient(azurite.connectionString, settings.HITS_QUEUE).createIfNotExists();
  const host = await startLocalHost({
    root: rootFromEnvironment(settings, { logger: quiet, store: secretsOnly() }),
    port: 0,
    queues: false,
    timers: false,
  });
  try {
    for (const [batch, total] of [
      [1, 1000],
      [100, 20000],
    ] as const) {
      const payloads = Array.from({ length: total / batch }, (_, i) => body(batch, i));
      const t0 = performance.now();
      await postHits(host.url, payloads, 8);
      const seconds = (performance.now() - t0) / 1000;
      console.log(
        `through the local host into Azurite, ${batch} hit(s) per request, 8 at once: ${Math.round(total / seconds)} hits/s (${Math.round(payloads.length / seconds)} requests/s)`,
      );
    }
  } finally {
    await host.stop();
    await azurite.stop();
  }
}
