import { performance } from 'node:perf_hooks';
import { rootFromEnvironment } from '../host/composition';
import { startLocalHost } from '../host/local/host';
import { startAzurite } from '../host/local/services';
import { answerServerHits } from '../host/http/ingest';
import type { HitQueue } from '../shared/core/ports/queue';
import { QueueClient } from '@azure/storage-queue';
import { createHmac, randomUUID } from 'node:crypto';
import { hostingNetworks } from '../adapters/files/networks';
import { jsonRequest } from '../test/support/import-rig';
import { DATA_CENTRES, PEOPLES_NETWORKS } from '../test/support/networks';
import { hostSettings, KEYS, postHits, quiet } from './settings';

const agents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
];

const NO_STORE = 'http://127.0.0.1:1';

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

const request = (text: string) => jsonRequest(text, { 'x-ingest-key': KEYS.INGEST_KEY });

const hex16 = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest().subarray(0, 16).toString('hex');

/** The floor of the same work, µs a hit: the body parsed, two HMACs a hit and the message ingest writes encoded, with no rule. */
function floorPerHit(texts: readonly string[]): number {
  const key = KEYS.HASH_KEY;
  const started = performance.now();
  const at = new Date().toISOString();
  let hits = 0;
  for (const text of texts) {
    const parsed = JSON.parse(text) as {
      hits: Array<{ address: string; user_agent: string; path: string; referrer: string; page_load: boolean }>;
    };
    const queued = parsed.hits.map((hit) => ({
      at,
      token: hex16(key, `2026-10-23|${hit.address}`),
      person: hex16(key, `person|${hit.address}|${hit.user_agent}`),
      network: hit.address,
      path: hit.path,
      store: 'site',
      bot: false,
      reason: null,
      self: false,
      source: hit.referrer,
      page_load: hit.page_load,
      subject: null,
      country: 'XX',
      browser: 'other',
      system: 'other',
      device: 'unknown',
      campaign: null,
    }));
    Buffer.from(JSON.stringify({ v: 1, id: randomUUID(), hits: queued }), 'utf8').toString('base64');
    hits += queued.length;
  }
  return ((performance.now() - started) * 1000) / hits;
}

/** The hosting networks' lookup alone, µs an address, over data centres' and ISPs' addresses, IPv4 and IPv6. */
function lookupPerAddress(): number {
  const table = hostingNetworks();
  const addresses = [...DATA_CENTRES.map(([, address]) => address), ...PEOPLES_NETWORKS.map(([, address]) => address)];
  for (let i = 0; i < 100_000; i += 1) table.hostingAsn(addresses[i % addresses.length]!);
  const rounds = 1_000_000;
  const started = performance.now();
  for (let i = 0; i < rounds; i += 1) table.hostingAsn(addresses[i % addresses.length]!);
  return ((performance.now() - started) * 1000) / rounds;
}

/** The ingest handler in-process (queue faked: it only counts), and hits/s through the local host into Azurite. */
export async function run(): Promise<void> {
  let sent = 0;
  const countingQueue: HitQueue = {
    sendAll: async (messages) => {
      sent += messages.length;
      return { ok: true };
    },
  };
  const root = rootFromEnvironment(hostSettings('UseDevelopmentStorage=true', NO_STORE, 'ingest'), {
    hitQueue: countingQueue,
    logger: quiet,
  });
  const perRequest = 100;
  const requests = 200;
  const texts = Array.from({ length: requests }, (_, i) => body(perRequest, i));
  const hits = perRequest * requests;
  for (const text of texts.slice(0, 20)) await answerServerHits(request(text), root.receive);
  floorPerHit(texts.slice(0, 20));
  // Ingest and its floor alternate ten requests at a time, so a shared machine's slow moments fall on both.
  const rounds = 3;
  const slice = 10;
  const ingestRounds: number[] = [];
  const floors: number[] = [];
  const sentBefore = sent;
  for (let round = 0; round < rounds; round += 1) {
    let ingestMs = 0;
    let floorUs = 0;
    for (let at = 0; at < texts.length; at += slice) {
      const some = texts.slice(at, at + slice);
      const started = performance.now();
      for (const text of some) await answerServerHits(request(text), root.receive);
      ingestMs += performance.now() - started;
      floorUs += floorPerHit(some) * some.length * perRequest;
    }
    ingestRounds.push((ingestMs * 1000) / hits);
    floors.push(floorUs / hits);
  }
  const perHit = Math.min(...ingestRounds);
  const floor = Math.min(...floors);
  const each = (figures: number[]) => figures.map((figure) => figure.toFixed(1)).join(', ');
  console.log(
    `in-process ingest (queue faked): ${perHit.toFixed(1)} µs per hit over ${hits} hits in batches of ${perRequest}, the best of ${rounds} rounds (${each(ingestRounds)}; ${(sent - sentBefore) / rounds} messages a round)`,
  );
  console.log(
    `the floor of the same work (parse, two HMACs a hit, the message with every field a hit carries): ${floor.toFixed(1)} µs per hit, the best of ${rounds} rounds (${each(floors)}); ingest is ${(perHit / floor).toFixed(2)}× the floor`,
  );

  console.log(
    `the hosting-network lookup alone: ${lookupPerAddress().toFixed(2)} µs per address (${hostingNetworks().header.ipv4} IPv4 and ${hostingNetworks().header.ipv6} IPv6 ranges)`,
  );

  const single = Array.from({ length: 2000 }, (_, i) => body(1, i));
  const singleStart = performance.now();
  for (const text of single) await answerServerHits(request(text), root.receive);
  console.log(
    `in-process ingest (queue faked), one hit per request: ${(((performance.now() - singleStart) * 1000) / single.length).toFixed(1)} µs per request`,
  );

  const azurite = await startAzurite();
  try {
    const settings = hostSettings(azurite.connectionString, NO_STORE, 'ingest');
    const liveRoot = rootFromEnvironment(settings, { logger: quiet });
    await new QueueClient(azurite.connectionString, settings.HITS_QUEUE).createIfNotExists();
    const host = await startLocalHost({ root: liveRoot, port: 0, queues: false, timers: false });
    try {
      for (const [batch, total] of [
        [1, 1000],
        [100, 20000],
      ] as const) {
        const payloads = Array.from({ length: total / batch }, (_, i) => body(batch, i));
        const concurrency = 8;
        const t0 = performance.now();
        await postHits(host.url, payloads, concurrency);
        const seconds = (performance.now() - t0) / 1000;
        console.log(
          `through the local host into Azurite, ${batch} hit(s) per request, ${concurrency} at once: ${Math.round(total / seconds)} hits/s (${Math.round(payloads.length / seconds)} requests/s)`,
        );
      }
    } finally {
      await host.stop();
    }
  } finally {
    await azurite.stop();
  }
}
