import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dollarsPerMillion, FREE_GRANTS, PRICES, PRICE_SOURCES, REQUEST_RECORD_BYTES, type PerHit } from './prices';

/** What one kind of traffic cost on the run, as counted. */
export interface TrafficCost {
  kind: string;
  hits: number;
  seconds: number;
  messages: number;
  counted: {
    httpExecutions: number;
    queueExecutions: number;
    timerExecutions: number;
    queueOperations: { put: number; get: number; delete: number; update: number };
    storeCalls: { reads: number; writes: number; queries: number; metadata: number };
    requestUnits: number;
    activeSeconds: number;
    logLines: number;
    telemetryBytes: number;
  };
  /** Priced as a quiet hour: every execution its own stretch, billed the minimum. */
  sparse: boolean;
}

/** A run of `npm run bench cost`, as bench/cost-run.json keeps it. */
export interface CostRecord {
  ranAt: string;
  machine: string;
  windowMs: number;
  sampledPercent: number;
  batchSize: number;
  traffic: TrafficCost[];
  loneLatencyMs: { median: number; p99: number };
  peakRssMb: { peak: number; idle: number };
  /** The fold when nothing changed since its last run: what each of its 43,200 runs a month costs at least. */
  idleRecount?: { requestUnits: number; storeCalls: number; activeSeconds: number };
}

export const costRecordPath = join(__dirname, '..', '..', 'bench', 'cost-run.json');

/** The instance memory the prices are worked at: the default, which the measured peak must leave a margin under. */
const PRICED_MEMORY_MB = 512;

/** The figures of a traffic kind per hit, and its execution count per hit. */
export function perHit(traffic: TrafficCost): PerHit {
  const c = traffic.counted;
  const executions = c.httpExecutions + c.queueExecutions;
  const q = c.queueOperations;
  return {
    executions: executions / traffic.hits,
    queueOperations: (q.put + q.get + q.delete + q.update) / traffic.hits,
    storeCalls: (c.storeCalls.reads + c.storeCalls.writes + c.storeCalls.queries) / traffic.hits,
    requestUnits: c.requestUnits / traffic.hits,
    activeSeconds: traffic.sparse ? (executions * PRICES.minimumBilledSeconds) / traffic.hits : c.activeSeconds / traffic.hits,
    telemetryBytes: c.telemetryBytes / traffic.hits,
  };
}

const money = (value: number) => `$${value.toFixed(value >= 0.01 ? 2 : 4)}`;
const fixed = (value: number, digits = 2) => value.toFixed(digits);
const label: Record<string, string> = { beacon: 'beacon, busy', server: `server, busy`, 'lone-beacon': 'beacon, sparse' };

/** Why the largest line is the largest, in a sentence. */
function why(line: string, traffic: TrafficCost): string {
  if (line.startsWith('Cosmos'))
    return `each new visitor's record is read and written once a day, and the fold writes a visitor-day per visitor (${fixed(perHit(traffic).requestUnits, 1)} RU a hit)`;
  if (line.startsWith('Functions compute'))
    return traffic.sparse
      ? 'every lone hit wakes an instance for the 1 s minimum, twice (its request, then its message)'
      : 'instance time while executions run';
  if (line.startsWith('Functions executions')) return 'one execution per beacon request is left, however many share a message';
  if (line.startsWith('Queue')) return 'a put, a get and a delete per message';
  return 'request records and log lines';
}

/** The fixed monthly cost: the fold every minute, replay-poison every 15 minutes, the queue polled while an instance is up. */
function monthly(record: CostRecord) {
  const gb = PRICED_MEMORY_MB / 1024;
  const foldRuns = 43_200;
  const replayRuns = 2_880;
  const idle = record.idleRecount ?? { requestUnits: 0, storeCalls: 0, activeSeconds: 0 };
  const runs = foldRuns + replayRuns;
  const lines = {
    'Cosmos DB (the idle fold)': (foldRuns * idle.requestUnits * PRICES.cosmosPerMillionRu) / 1e6,
    'Functions executions': (runs * PRICES.functionsPerMillionExecutions) / 1e6,
    [`Functions compute at ${PRICED_MEMORY_MB} MB (each run billed ${PRICES.minimumBilledSeconds} s)`]:
      runs * PRICES.minimumBilledSeconds * gb * PRICES.functionsPerGbSecond,
    'Queue Storage (polled every 2 s while up, and replay-poison)':
      ((30 * 86_400) / 2 + replayRuns * 2) * (PRICES.queuePer10kOperations / 10_000),
    'Log Analytics (a sampled request record a run)':
      (runs * REQUEST_RECORD_BYTES * (record.sampledPercent / 100) * PRICES.logsPerGb) / 1e9,
  };
  return {
    lines,
    total: Object.values(lines).reduce((sum, value) => sum + value, 0),
    gbSeconds: runs * PRICES.minimumBilledSeconds * gb,
    executions: runs,
  };
}

/** The cost section: for docs/cost.md (Markdown) or the console (the same tables, plain). */
export function renderCostSection(record: CostRecord, to: 'readme' | 'console'): string {
  const kinds = record.traffic;
  const per = kinds.map(perHit);
  const priced = per.map((one) => dollarsPerMillion(one, PRICED_MEMORY_MB));
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const head = (cells: string[]) => [row(cells), row(cells.map(() => '---'))].join('\n');
  const counted: Array<[string, (k: TrafficCost, p: PerHit) => string]> = [
    ['hits sent (every request answered 202)', (k) => String(k.hits)],
    ['queue messages (hits a message)', (k) => `${k.messages} (${fixed(k.hits / k.messages, 1)})`],
    [
      'HTTP + queue-trigger executions (a hit)',
      (k, p) => `${k.counted.httpExecutions} + ${k.counted.queueExecutions} (${fixed(p.executions, 3)})`,
    ],
    [
      'queue operations: put / get / delete / update (a hit)',
      ({ counted: { queueOperations: q } }, p) => `${q.put} / ${q.get} / ${q.delete} / ${q.update} (${fixed(p.queueOperations, 3)})`,
    ],
    [
      'store calls: reads / writes / queries, keep-hits and the fold (a hit)',
      ({ counted: { storeCalls: s } }, p) => `${s.reads} / ${s.writes} / ${s.queries} (${fixed(p.storeCalls, 2)})`,
    ],
    ['request units, estimated (a hit)', (k, p) => `${k.counted.requestUnits} (${fixed(p.requestUnits, 2)})`],
    [
      'active seconds, executions overlapping (a hit, as priced)',
      (k, p) =>
        `${k.counted.activeSeconds} (${p.activeSeconds.toPrecision(2)}${k.sparse ? `: ${PRICES.minimumBilledSeconds} s an execution` : ''})`,
    ],
    [
      'app log lines; telemetry bytes (a hit)',
      (k, p) => `${k.counted.logLines}; ${k.counted.telemetryBytes} (${fixed(p.telemetryBytes, 0)})`,
    ],
  ];
  const month = monthly(record);
  const out = [
    `Counted on ${record.machine}, ${record.ranAt.slice(0, 16).replace('T', ' ')} UTC, with \`INGEST_WINDOW_MS\` ${record.windowMs} and host.json's sampling at ${record.sampledPercent}%:`,
    '',
    head(['counted on the run', ...kinds.map((k) => label[k.kind] ?? k.kind)]),
    ...counted.map(([name, cell]) => row([name, ...kinds.map((k, i) => cell(k, per[i]!))])),
    '',
    head([`$ per million hits, ${PRICED_MEMORY_MB} MB instances`, ...kinds.map((k) => label[k.kind] ?? k.kind)]),
    ...Object.keys(priced[0]!.lines).map((line) => row([line, ...priced.map((p) => money(p.lines[line]!))])),
    row(['**total**', ...priced.map((p) => `**${money(p.total)}**`)]),
    row(['largest line', ...priced.map((p, i) => `${p.largest.line.replace(/ at \d+ MB/, '')}: ${why(p.largest.line, kinds[i]!)}`)]),
    '',
    `A lone beacon waits ${record.loneLatencyMs.median} ms (median) and ${record.loneLatencyMs.p99} ms (p99), in-process, for its window and the queue. The host's peak resident memory under this traffic, in a process of its own with V8's old space at 256 MB as infra sets it on a 512 MB instance: ${record.peakRssMb.peak} MB (${record.peakRssMb.idle} MB idle).`,
    '',
    head(['fixed each month, whatever the traffic', `$ at ${PRICED_MEMORY_MB} MB`]),
    ...Object.entries(month.lines).map(([line, value]) => row([line, money(value)])),
    row(['**total**', `**${money(month.total)}**`]),
    '',
    `Free grants each month, not subtracted above: ${FREE_GRANTS.functionsGbSeconds.toLocaleString('en-US')} GB-s and ${FREE_GRANTS.functionsExecutions.toLocaleString('en-US')} executions (Flex Consumption on demand, per subscription), ${FREE_GRANTS.logsGb} GB of logs. ` +
      `The fixed runs use ${Math.round(month.gbSeconds).toLocaleString('en-US')} GB-s and ${month.executions.toLocaleString('en-US')} executions of them.`,
    '',
    head(['service', 'price', 'source']),
    ...PRICE_SOURCES.map((source) => row([source.service, source.price, source.source])),
  ];
  const text = out.join('\n');
  return to === 'readme' ? text : text.replace(/\*\*/g, '');
}

const BEGIN = '<!-- cost:begin (npm run bench cost -- --write) -->';
const END = '<!-- cost:end -->';
const readmePath = join(__dirname, '..', '..', 'docs', 'cost.md');

const between = (readme: string) => ({ start: readme.indexOf(BEGIN), end: readme.indexOf(END) });

/** The cost section of docs/cost.md as it stands, between its markers. */
export function readmeCostSection(readme = readFileSync(readmePath, 'utf8')): string | null {
  const { start, end } = between(readme);
  return start < 0 || end < start ? null : readme.slice(start + BEGIN.length, end).trim();
}

/** Rewrites the cost section of docs/cost.md from a run. */
export function writeReadmeCostSection(record: CostRecord): void {
  const readme = readFileSync(readmePath, 'utf8');
  const { start, end } = between(readme);
  if (start < 0 || end < start) throw new Error(`docs/cost.md has no ${BEGIN} … ${END}`);
  writeFileSync(readmePath, `${readme.slice(0, start + BEGIN.length)}\n${renderCostSection(record, 'readme')}\n${readme.slice(end)}`);
}
