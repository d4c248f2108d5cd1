import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueueClient } from '@azure/storage-queue';
import hostJson from '../host.json';
import { rootFromEnvironment } from '../host/composition';
import { answerBeacon } from '../host/http/ingest';
import { beaconRequest, sendAtOnce } from '../test/support/beacon-clients';
import { jsonRequest } from '../test/support/import-rig';
import { ensureContainer } from '../adapters/cosmos/client';
import { countingLogger } from './cost/meters';
import { localContainer } from './local-store';
import { peakMemory } from './cost/memory';
import { beaconTraffic, loneBeacons, serverTraffic, VISITORS, type Sent } from './cost/traffic';
import { costRecordPath, renderCostSection, writeReadmeCostSection, type CostRecord, type TrafficCost } from '../test/support/cost-record';
import { REQUEST_RECORD_BYTES } from '../test/support/prices';
import { BEACON_SITE, hostSettings } from './settings';
import { LOCAL_BATCH, meteredStack, withServices } from './stack';
import { percentile } from './report';
import { tally } from './store-calls';

/** The request records Application Insights keeps of every hundred, as host.json caps them. */
const { samplingSettings } = hostJson.logging.applicationInsights;
const sampledPercent = samplingSettings.isEnabled ? samplingSettings.maxSamplingPercentage : 100;

type Stack = Awaited<ReturnType<typeof meteredStack>>;

/** Runs one kind of traffic through a local host of its own (metered queue and store), then the fold, and counts it all. */
async function measure(stack: Stack, name: string, drive: (url: string) => Promise<Sent>, sparse: boolean) {
  const { settings, logger, meter, host } = await stack.host(`cost-${name}`, BEACON_SITE);
  // A deployment whose timer has run once: its one-time migrations are done, so the traffic pays only its own way.
  await host.run('recount');
  meter.take();
  stack.queueProxy.take();
  await stack.cosmos.take();
  logger.take();
  const started = performance.now();
  const sent = await drive(host.url);
  await host.drain(300_000);
  await sleep(Number(settings.FOLD_SETTLE_SECONDS) * 1000 + 1_100);
  // A run cut off by the local server's timeout folds again from the same watermarks.
  const unfinished = 'the fold did not finish; the next run folds from the same watermarks';
  for (let run = 0; run < 5; run += 1) {
    const before = logger.said(unfinished);
    await host.run('recount');
    if (logger.said(unfinished) === before) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const executions = meter.take();
  const queue = stack.queueProxy.take().filter((call) => call.kind !== 'setup');
  const store = tally(await stack.cosmos.take());
  const logs = logger.take();
  // The fold with nothing new: what each of its runs a minute costs at least.
  await host.run('recount');
  const idleCalls = tally(await stack.cosmos.take());
  const idle = {
    requestUnits: Number(idleCalls.ru.toFixed(1)),
    storeCalls: idleCalls.calls,
    activeSeconds: Number(meter.take().activeSeconds.toFixed(3)),
  };
  // A run of the fold after one more visitor's page on a day the traffic filled: a minute of a site with a visitor a minute.
  await sendAtOnce(host.url, [beaconRequest(VISITORS + 1, { path: '/articles/0' })]);
  await host.drain(60_000);
  await sleep(Number(settings.FOLD_SETTLE_SECONDS) * 1000 + 1_100);
  await stack.cosmos.take();
  await host.run('recount');
  const minuteCalls = tally(await stack.cosmos.take());
  const minute = { storeCalls: minuteCalls.calls, requestUnits: Number(minuteCalls.ru.toFixed(1)) };
  await host.stop();
  const refused = sent.answers.filter((answer) => answer.status !== 202).length;
  if (refused > 0) throw new Error(`${name}: ${refused} requests were not answered 202`);

  const byKind = (kind: string) => queue.filter((call) => call.kind === kind).length;
  const allExecutions = executions.http + executions.queue + executions.timer;
  // Every execution a request record, kept at the sampled share; every log line the app wrote, kept whole.
  const telemetry = (allExecutions * REQUEST_RECORD_BYTES * sampledPercent) / 100 + logs.bytes;
  const messages = byKind('put');
  const cost: TrafficCost = {
    kind: name,
    hits: sent.hits,
    seconds: Number(seconds.toFixed(1)),
    messages,
    counted: {
      httpExecutions: executions.http,
      queueExecutions: executions.queue,
      timerExecutions: executions.timer,
      queueOperations: { put: messages, get: byKind('get'), delete: byKind('delete'), update: byKind('update') },
      storeCalls: { reads: store.reads, writes: store.writes, queries: store.queries, metadata: store.metadata },
      requestUnits: Number(store.ru.toFixed(1)),
      activeSeconds: Number(executions.activeSeconds.toFixed(3)),
      logLines: logs.lines,
      telemetryBytes: Math.round(telemetry),
    },
    sparse,
  };
  return { cost, idle, minute };
}

/** What a lone beacon waits, in-process: the handler alone, against the real queue, one at a time (each waits its whole window). */
async function loneLatency(stack: Stack): Promise<{ median: number; p99: number; windowMs: number }> {
  const settings = hostSettings(stack.azurite.connectionString, stack.cosmos.endpoint, 'cost-lone', BEACON_SITE);
  const root = rootFromEnvironment(settings, { logger: countingLogger() });
  // Each day's secret is kept in the store, so the container must be there first.
  await ensureContainer(localContainer(stack.cosmos.endpoint, settings.COSMOS_DATABASE));
  await new QueueClient(stack.azurite.connectionString, settings.HITS_QUEUE).createIfNotExists();
  const times: number[] = [];
  for (let n = 0; n < 220; n += 1) {
    const started = performance.now();
    const { headers, body } = beaconRequest(100_000 + n);
    // As the local host hands it over, from behind Azure's front end.
    const request = jsonRequest(body, { ...headers, 'x-forwarded-for': `${headers['x-forwarded-for']}, 127.0.0.1:50000` });
    const answer = await answerBeacon(request, root.receive);
    if (answer.status !== 202) throw new Error(`a lone beacon was answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    if (n >= 20) times.push(performance.now() - started);
  }
  const at = (q: number) => Number(percentile(times, q).toFixed(1));
  return { median: at(0.5), p99: at(0.99), windowMs: root.settings.INGEST_WINDOW_MS };
}

/** `npm run bench cost`: three kinds of traffic on a metered local stack, $ a million hits each; `--write` records the run. */
export async function run(): Promise<void> {
  await withServices([meteredStack()], async (stack) => {
    const beacon = await measure(stack, 'beacon', (url) => beaconTraffic(url), false);
    const server = await measure(stack, 'server', (url) => serverTraffic(url), false);
    const lone = await measure(stack, 'lone-beacon', (url) => loneBeacons(url, 30), true);
    const latency = await loneLatency(stack);
    const memory = await peakMemory(stack.azurite.connectionString, stack.cosmos.endpoint);
    const record: CostRecord = {
      ranAt: new Date().toISOString(),
      machine: `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, Node ${process.version}`,
      windowMs: latency.windowMs,
      sampledPercent: sampledPercent,
      batchSize: LOCAL_BATCH,
      traffic: [beacon.cost, server.cost, lone.cost],
      idleRecount: beacon.idle,
      loneLatencyMs: { median: latency.median, p99: latency.p99 },
      peakRssMb: memory,
    };
    console.log(renderCostSection(record, 'console'));
    for (const [kind, minute] of Object.entries({ 'beacon, busy': beacon.minute, 'server, busy': server.minute }))
      console.log(
        `${kind}: a run of the fold after one more visitor's page on that day (a minute of a site with a visitor a minute): ` +
          `${minute.storeCalls} store calls, ~${minute.requestUnits} RU`,
      );
    if (process.argv.includes('--write')) {
      writeFileSync(costRecordPath, `${JSON.stringify(record, null, 2)}\n`);
      writeReadmeCostSection(record);
      console.log(`\nwrote ${join('bench', 'cost-run.json')} and the cost section of docs/cost.md`);
    }
  });
}
