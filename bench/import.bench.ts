import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import { hostingNetworks } from '../adapters/files/networks';
import { runImport } from '../scripts/import/run';
import { addDays } from '../shared/core/days';
import { utcDay } from '../shared/core/identity/tokens';
import { seeded } from '../test/support/log-history';
import { PRICES } from '../test/support/prices';
import { fmt } from './report';
import { meteredStack } from './stack';
import { tally } from './store-calls';

/**
 * `npm run bench import`: the command's read rate on a dry run of a year of nginx log, plain and gzipped, and the
 * backfill on the metered local stack (sent, kept by keep-imports, folded until caught up), its store calls and
 * request units a thousand lines. IMPORT_BENCH_LINES sets the log's size (200,000).
 */
const LINES = Number(process.env.IMPORT_BENCH_LINES ?? 200_000);
const DAYS = 365;

const AGENTS = [
  (v: number) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`,
  (v: number) => `Mozilla/5.0 (X11; Linux x86_64; rv:${v}.0) Gecko/20100101 Firefox/${v}.0`,
  (v: number) =>
    `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${v % 7} Safari/605.1.15`,
  (v: number) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${v % 7} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${v % 7} Mobile/15E148 Safari/604.1`,
  (v: number) => `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Mobile Safari/537.36`,
];
const BOTS = [
  ['66.249.66.1', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
  ['40.77.167.5', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
  ['10.0.0.5', 'ELB-HealthChecker/2.0'],
] as const;
const PAGES = ['/', '/about', '/blog/', '/blog/first-post/', '/blog/second-post/', '/resume/', '/projects/', '/contact', '/pricing'];
const ASSETS = ['/assets/site.css', '/assets/app.js', '/images/hero.webp'];
const PREFIXES = ['73.15', '24.4', '79.192', '91.36', '86.128', '81.128', '90.0', '83.32', '88.64', '172.56'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const timeLocal = (at: Date) =>
  `${pad(at.getUTCDate())}/${MONTHS[at.getUTCMonth()]}/${at.getUTCFullYear()}:${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())} +0000`;

/** A year of a small site's nginx log, oldest first: returning people's pages and assets, crawlers, health checks, a scanner. */
async function writeLog(file: string, lines: number): Promise<void> {
  const random = seeded(21);
  const out = createWriteStream(file);
  const write = (line: string) =>
    out.write(`${line}\n`) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  const people = Math.max(50, Math.round(lines / 30));
  const pool = Array.from({ length: people }, () => ({
    address: `${PREFIXES[Math.floor(random() * PREFIXES.length)]}.${1 + Math.floor(random() * 250)}.${1 + Math.floor(random() * 250)}`,
    agent: AGENTS[Math.floor(random() * AGENTS.length)]!,
  }));
  const first = addDays(utcDay(new Date()), -DAYS);
  const perDay = lines / DAYS;
  let written = 0;
  for (let d = 0; d < DAYS && written < lines; d += 1) {
    const start = Date.parse(`${addDays(first, d)}T00:00:00Z`);
    const quota = Math.round(perDay * (d + 1)) - written;
    const day: Array<[number, string]> = [];
    while (day.length < quota) {
      const at = start + Math.floor(random() * 86_000_000);
      const kind = random();
      if (kind < 0.88) {
        const visitor = pool[Math.floor(people * random() ** 2)]!;
        const agent = visitor.agent(120 + Math.floor(d / 40));
        let second = 0;
        for (let p = 0, pages = 1 + Math.floor(random() * 3); p < pages; p += 1) {
          const path = PAGES[Math.floor(random() * PAGES.length)]!;
          const line = (target: string, status: number, referrer: string) =>
            `${visitor.address} - - [${timeLocal(new Date(at + second * 1000))}] "GET ${target} HTTP/1.1" ${status} 5120 "${referrer}" "${agent}"`;
          day.push([
            at + second * 1000,
            line(
              p === 0 && random() < 0.2 ? `${path}?utm_source=newsletter` : path,
              200,
              p === 0 ? 'https://www.google.com/' : 'https://example.com/',
            ),
          ]);
          for (const asset of ASSETS.slice(0, Math.floor(random() * 3)))
            day.push([at + second * 1000, line(asset, 200, 'https://example.com/')]);
          second += 20 + Math.floor(random() * 120);
        }
      } else if (kind < 0.98) {
        const [address, agent] = BOTS[Math.floor(random() * BOTS.length)]!;
        day.push([
          at,
          `${address} - - [${timeLocal(new Date(at))}] "GET ${PAGES[Math.floor(random() * PAGES.length)]} HTTP/1.1" 200 5120 "-" "${agent}"`,
        ]);
      } else {
        day.push([at, `159.89.173.104 - - [${timeLocal(new Date(at))}] "GET /wp-login.php HTTP/1.1" 404 150 "-" "Mozilla/5.0 zgrab/0.x"`]);
      }
    }
    day.sort((a, b) => a[0] - b[0]);
    for (const [, line] of day.slice(0, quota)) await write(line);
    written += Math.min(quota, day.length);
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

/** The read rate of a dry run over one file, and the peak memory the process reached meanwhile. */
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

async function backfill(file: string, lines: number) {
  const stack = await meteredStack();
  const { settings, meter, root, host } = await stack.host('import', {}, process.env.IMPORT_BENCH_ECHO === '1');
  try {
    const started = performance.now();
    const summary = await runImport(
      {
        inputs: [file],
        format: 'auto',
        dryRun: false,
        target: { url: host.url, key: settings.INGEST_KEY, from: 'the bench' },
        networks: hostingNetworks(),
      },
      { out: () => undefined },
    );
    const sent = performance.now();
    await host.listeners().get('keep-imports')!.drain(3_600_000);
    const kept = performance.now();
    const keepCalls = tally(await stack.cosmos.take());
    let runs = 0;
    for (; runs < 200; runs += 1) {
      await sleep(2_100);
      await host.run('recount');
      const state = await root.store.foldState.read();
      if (state?.doc.behind === null && state.doc.imported.length === 0) break;
    }
    const folded = performance.now();
    const foldCalls = tally(await stack.cosmos.take());
    const queue = stack.queueProxy.take().filter((call) => call.kind !== 'setup').length;
    const executions = meter.take();
    const people = (await root.store.visitorsSummary.read())?.doc;
    const visits = (await root.store.visits.read())?.doc;
    return {
      summary,
      seconds: {
        send: (sent - started) / 1000,
        keep: (kept - started) / 1000,
        total: (folded - started) / 1000,
        fold: (folded - kept) / 1000,
      },
      runs: runs + 1,
      keepCalls,
      foldCalls,
      queue,
      executions,
      figures: { people: people?.people_all_time ?? 0, scanners: people?.scanners_left_out ?? 0, visits: visits?.all_time ?? 0 },
      lines,
    };
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
    await writeLog(plain, LINES);
    await pipeline(createReadStream(plain), createGzip(), createWriteStream(gz));
    console.log(
      `A year of nginx combined log: ${fmt(LINES)} lines, ${fmt(statSync(plain).size / 1e6, 1)} MB (${fmt(statSync(gz).size / 1e6, 1)} MB gzipped).`,
    );

    console.log('\nThe command, --dry-run (read, parse, classify, estimate; nothing sent), after a warm-up read of 20,000 lines:');
    const warm = join(dir, 'warm-up.log');
    await writeLog(warm, 20_000);
    await readRate(warm);
    for (const [label, file] of [
      ['plain', plain],
      ['gzipped', gz],
    ] as const) {
      const read = await readRate(file);
      console.log(
        `  ${label}: ${fmt(read.lines)} lines in ${fmt(read.seconds, 1)} s: ${fmt(read.rate)} lines/s; peak memory ${fmt(read.peakMb)} MB (rss)`,
      );
    }

    console.log('\nThe backfill on the local stack (the command sending, keep-imports on 4 messages at a time, the fold until caught up):');
    const b = await backfill(plain, LINES);
    const per1000 = (n: number) => (n * 1000) / LINES;
    console.log(
      `  sent ${fmt(b.summary.sent)} hits (${fmt(b.summary.ignored.asset)} assets and ${fmt(b.summary.skipped)} later lines left out) in ${fmt(b.seconds.send, 1)} s`,
    );
    console.log(
      `  kept by keep-imports ${fmt(b.seconds.keep, 1)} s after the first line was sent; folded ${fmt(b.seconds.fold, 1)} s later, in ${b.runs} runs of the fold`,
    );
    console.log(
      `  in all ${fmt(b.seconds.total, 1)} s: ${fmt(LINES / b.seconds.total)} lines/s; a million lines at this rate: ${fmt(1_000_000 / (LINES / b.seconds.total) / 60, 1)} min`,
    );
    console.log(
      `  counted: ${fmt(b.figures.people)} people, ${fmt(b.figures.visits)} visits, ${fmt(b.figures.scanners)} scanners left out (the command estimated ${fmt(b.summary.estimate.people)}, ${fmt(b.summary.estimate.visits)}, ${fmt(b.summary.estimate.scanners)})`,
    );
    console.log('\n  | per 1,000 lines | reads | writes | queries | store calls | request units (estimated) |');
    console.log('  | --- | --- | --- | --- | --- | --- |');
    for (const [label, cost] of [
      ['keep-imports', b.keepCalls],
      ['the fold', b.foldCalls],
    ] as const)
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
