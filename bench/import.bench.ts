import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import { hostingNetworks } from '../adapters/files/networks';
import { runImport } from '../scripts/import/run';
import { utcDay } from '../shared/core/identity/tokens';
import { combinedLine, history } from '../test/support/log-history';
import { PRICES } from '../test/support/prices';
import { fmt } from './report';
import { meteredStack } from './stack';
import { tally } from './store-calls';

/** `npm run bench import`: the command's read rate on a dry run of a year of nginx log (test/support/log-history.ts), plain and gzipped, and the backfill on the metered local stack (sent, kept by keep-imports, folded until caught up), its store calls and request units a thousand lines. */
const PEOPLE = Number(process.env.IMPORT_BENCH_PEOPLE ?? 530);

function writeLog(file: string, people: number): number {
  const requests = history({ today: utcDay(new Date()), days: 365, people });
  writeFileSync(file, `${requests.map((request) => combinedLine(request)).join('\n')}\n`);
  return requests.length;
}

async function readRate(file: string) {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const summary = await runImport(
    { inputs: [file], format: 'auto', dryRun: true, target: null, until: utcDay(new Date()), networks: hostingNetworks() },
    { out: () => undefined },
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { lines: summary.lines, seconds, rate: summary.lines / seconds, peakMb: peak / 1e6, summary };
}

async function backfill(file: string) {
  const stack = await meteredStack();
  const { settings, meter, root, host } = await stack.host('import');
  try {
    const started = performance.now();
    const since = () => (performance.now() - started) / 1000;
    const target = { url: host.url, key: settings.INGEST_KEY, from: 'the bench' };
    const summary = await runImport(
      { inputs: [file], format: 'auto', dryRun: false, target, networks: hostingNetworks() },
      { out: () => undefined },
    );
    const sent = since();
    await host.listeners().get('keep-imports')!.drain(3_600_000);
    const kept = since();
    const keepCalls = tally(await stack.cosmos.take());
    let runs = 0;
    for (; runs < 200; runs += 1) {
      await sleep(2_100);
      await host.run('recount');
      const state = await root.store.foldState.read();
      if (state?.doc.behind === null && state.doc.imported.length === 0) break;
    }
    const folded = since();
    const foldCalls = tally(await stack.cosmos.take());
    const queue = stack.queueProxy.take().filter((call) => call.kind !== 'setup').length;
    const executions = meter.take();
    const people = (await root.store.visitorsSummary.read())?.doc;
    const visits = (await root.store.visits.read())?.doc;
    const figures = { people: people?.people_all_time ?? 0, scanners: people?.scanners_left_out ?? 0, visits: visits?.all_time ?? 0 };
    const seconds = { send: sent, keep: kept, total: folded, fold: folded - kept };
    return { summary, seconds, runs: runs + 1, keepCalls, foldCalls, queue, executions, figures };
  } finally {
    await host.stop();
    await stack.stop();
  }
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'headcount-import-bench-'));
  try {
    const plain = join(dir, 'access.log');
    const gz = join(dir, 'access.log.1.gz');
    const lines = writeLog(plain, PEOPLE);
    await pipeline(createReadStream(plain), createGzip(), createWriteStream(gz));
    console.log(
      `A year of nginx combined log: ${fmt(lines)} lines, ${fmt(statSync(plain).size / 1e6, 1)} MB (${fmt(statSync(gz).size / 1e6, 1)} MB gzipped).`,
    );
    const warm = join(dir, 'warm-up.log');
    console.log(
      `\nThe command, --dry-run (read, parse, classify, estimate; nothing sent), after a warm-up read of ${fmt(writeLog(warm, 30))} lines:`,
    );
    await readRate(warm);
    for (const [label, file] of Object.entries({ plain, gzipped: gz })) {
      const read = await readRate(file);
      console.log(
        `  ${label}: ${fmt(read.lines)} lines in ${fmt(read.seconds, 1)} s: ${fmt(read.rate)} lines/s; peak memory ${fmt(read.peakMb)} MB (rss)`,
      );
    }
    console.log('\nThe backfill on the local stack (the command sending, keep-imports on 4 messages at a time, the fold until caught up):');
    const b = await backfill(plain);
    const per1000 = (n: number) => (n * 1000) / lines;
    console.log(
      `  sent ${fmt(b.summary.sent)} hits (${fmt(b.summary.ignored.asset)} assets and ${fmt(b.summary.skipped)} later lines left out) in ${fmt(b.seconds.send, 1)} s`,
    );
    console.log(
      `  kept by keep-imports ${fmt(b.seconds.keep, 1)} s after the first line was sent; folded ${fmt(b.seconds.fold, 1)} s later, in ${b.runs} runs of the fold`,
    );
    console.log(
      `  in all ${fmt(b.seconds.total, 1)} s: ${fmt(lines / b.seconds.total)} lines/s; a million lines at this rate: ${fmt(1_000_000 / (lines / b.seconds.total) / 60, 1)} min`,
    );
    console.log(
      `  counted: ${fmt(b.figures.people)} people, ${fmt(b.figures.visits)} visits, ${fmt(b.figures.scanners)} scanners left out (the command estimated ${fmt(b.summary.estimate.people)}, ${fmt(b.summary.estimate.visits)}, ${fmt(b.summary.estimate.scanners)})`,
    );
    console.log('\n  | per 1,000 lines | reads | writes | queries | store calls | request units (estimated) |');
    console.log('  | --- | --- | --- | --- | --- | --- |');
    for (const [label, cost] of Object.entries({ 'keep-imports': b.keepCalls, 'the fold': b.foldCalls }))
      console.log(
        `  | ${label} | ${fmt(per1000(cost.reads), 1)} | ${fmt(per1000(cost.writes), 1)} | ${fmt(per1000(cost.queries), 1)} | ${fmt(per1000(cost.calls), 1)} | ${fmt(per1000(cost.ru), 1)} |`,
      );
    const totalRu = per1000(b.keepCalls.ru + b.foldCalls.ru);
    console.log(`  | both | | | | ${fmt(per1000(b.keepCalls.calls + b.foldCalls.calls), 1)} | ${fmt(totalRu, 1)} |`);
    const queueOps = per1000(b.queue);
    const executions = per1000(b.executions.http + b.executions.queue + b.executions.timer);
    console.log(
      `\n  Priced (test/support/prices.ts): ${fmt(totalRu, 1)} RU a thousand lines is $${fmt((totalRu * 1000 * PRICES.cosmosPerMillionRu) / 1e6, 2)} of Cosmos DB a million lines; ` +
        `${fmt(queueOps, 2)} queue operations and ${fmt(executions, 2)} executions a thousand lines add $${fmt((queueOps * 1000 * PRICES.queuePer10kOperations) / 10_000 + (executions * 1000 * PRICES.functionsPerMillionExecutions) / 1e6, 3)} a million lines.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
