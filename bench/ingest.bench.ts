import { performance } from 'node:perf_hooks';
import { QueueClient } from '@azure/storage-queue';
import { rootFromEnvironment, type Root } from '../host/composition';
import { fold } from '../shared/fold/fold';
import { startLocalHost } from '../local/host';
import { startAzurite } from '../local/services';
import { accepted } from '../host/http/answer';
import { ingestRead, serverHits } from '../host/http/ingest';
import { receiveServerHits } from '../shared/ingest/receive';
import { hostingNetworks } from '../adapters/files/networks';
import { jsonRequest } from '../test/support/import-rig';
import { DATA_CENTRES, PEOPLES_NETWORKS } from '../test/support/networks';
import { AGENTS } from '../test/support/http';
import { memoryStore } from '../adapters/memory/store';
import { hostSettings, KEYS, postHits, quiet } from './settings';
import { PERSON_HASH_PRODUCTION_COST } from '../shared/core/identity/person-id';
import { personIds } from '../shared/core/person-ids';

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
  await switched(root);
  const headers = { 'x-ingest-key': KEYS.INGEST_KEY };
  const receive = (read: Parameters<typeof receiveServerHits>[0]) => receiveServerHits(read, root.receive);
  const ingest = (texts: readonly string[]) => ingestThrough(receive, texts);
  const ingestThrough = async (through: typeof receive, texts: readonly string[]) => {
    const started = performance.now();
    for (const text of texts) await ingestRead(jsonRequest(text, headers), root.receive, serverHits, through, accepted);
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
  await derivedIngest(root.receive, (through, sent) => ingestThrough(through, sent), texts.slice(0, 20), perRequest);
  const azurite = await startAzurite();
  const settings = hostSettings(azurite.connectionString, NO_STORE, 'ingest');
  await new QueueClient(azurite.connectionString, settings.HITS_QUEUE).createIfNotExists();
  const hostRoot = rootFromEnvironment(settings, { logger: quiet, store: secretsOnly() });
  await switched(hostRoot);
  const host = await startLocalHost({
    root: hostRoot,
    port: 0,
    queues: false,
    timers: false,
  });
  try {
    for (const [batch, total, seen] of [
      [1, 1000, 'every visitor new'],
      [100, 20000, 'every visitor new'],
      [100, 20000, 'the same hits again, every visitor derived already'],
    ] as const) {
      const payloads = Array.from({ length: total / batch }, (_, i) => body(batch, i));
      const t0 = performance.now();
      await postHits(host.url, payloads, 8);
      const seconds = (performance.now() - t0) / 1000;
      console.log(
        `through the local host into Azurite, ${batch} hit(s) per request, 8 at once, ${seen}: ${Math.round(total / seconds)} hits/s (${Math.round(payloads.length / seconds)} requests/s)`,
      );
    }
  } finally {
    await host.stop();
    await azurite.stop();
  }
}

/** The store moves to person ids at its first fold, as a deployment's does, so the ingest sends derived ids at the root's cost. */
async function switched(root: Root): Promise<void> {
  const outcome = await fold(root.fold);
  if (!outcome.ok) throw new Error(`the fold could not run: ${outcome.reason}`);
  console.log(`the ingest sends person ids derived at PERSON_HASH_COST ${root.settings.PERSON_HASH_COST}, the switch done`);
}

/** The same hits with the person id derived at the production cost: every visitor's first hit of the day, then the rest. */
async function derivedIngest(
  deps: Parameters<typeof receiveServerHits>[1],
  ingest: (
    through: (read: Parameters<typeof receiveServerHits>[0]) => ReturnType<typeof receiveServerHits>,
    texts: readonly string[],
  ) => Promise<number>,
  texts: readonly string[],
  perRequest: number,
): Promise<void> {
  // The day's timer is not wanted here: the bench ends within the day.
  const persons = personIds(PERSON_HASH_PRODUCTION_COST, { now: () => new Date(), after: () => ({ cancel: () => undefined }) });
  const through = (read: Parameters<typeof receiveServerHits>[0]) => receiveServerHits(read, { ...deps, persons });
  const people = new Set(
    texts.flatMap((text) =>
      (JSON.parse(text) as { hits: Array<{ address: string; user_agent: string }> }).hits.map((hit) => `${hit.address}|${hit.user_agent}`),
    ),
  );
  const cold = (await ingest(through, texts)) / perRequest;
  const warm = Math.min(...[await ingest(through, texts), await ingest(through, texts), await ingest(through, texts)]) / perRequest;
  console.log(
    `in-process ingest (queue faked), person ids derived at PERSON_HASH_COST ${PERSON_HASH_PRODUCTION_COST}: ${cold.toFixed(1)} µs per hit while each of ${people.size} visitors is first seen that day, ${warm.toFixed(1)} µs per hit once derived, the best of 3 rounds (the thread pool's ${process.env.UV_THREADPOOL_SIZE ?? 4} threads)`,
  );
}
