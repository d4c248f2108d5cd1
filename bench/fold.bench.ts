import { utcZone } from '../test/support/hit-days';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryStore } from '../adapters/memory/store';
import { readPeopleCount } from '../shared/read/counting/people-count';
import { keeper } from '../test/support/keeper';
import { systemClock } from '../shared/core/ports/clock';
import { bulkUpsert, freshLocalStore, localContainer, localStore } from './local-store';
import { queued } from '../test/support/hits';
import { fmt, hex, median } from './report';
import { cosmosProcess, withServices } from './stack';
import { storeProxyTo } from './store-calls';
import { BENCH_GOAL, GOAL_BACK_DAYS, goalBackDays } from './goal-back';
import { addDays } from '../shared/core/days';

/** `npm run bench fold`: a backlog of facts, as a timer outage leaves it, drained by fold runs in 512 MB child processes. */
const SMALL = Number(process.env.FOLD_SMALL ?? 100_000);
const LARGE = Number(process.env.FOLD_BACKLOG ?? 1_000_000);
const LARGE_MINUTES = Number(process.env.FOLD_MINUTES ?? 30);
const HEAP_MB = 512;
const PERSON_SHARE = 0.5;
const HITS_A_MESSAGE = 3;
const RUN_TIMEOUT_MS = 20 * 60_000;
const THROTTLE = 0.6;
const BULK_CHUNK = 50_000;
const THROTTLED_RUNS = 6;

const counted = (n: number) => (n < 0 ? 'null' : fmt(n));
/** An integer mix, so persons and days spread over the messages. */
const mix = (n: number, salt: number) => {
  let x = (n ^ salt) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
};

/** Message `m` of a backlog of `facts`: one person's three page loads on yesterday or today, one fact. */
function messageOf(m: number, facts: number, days: { yesterday: number; today: number; nowMs: number }) {
  const person = mix(m, 0x9e3779b9) % Math.max(1, Math.floor(facts * PERSON_SHARE));
  const day = mix(m, 0x85ebca6b) % 2;
  const start = day === 0 ? days.yesterday : days.today;
  const span = day === 0 ? 86_400_000 - 300_000 : Math.max(60_000, days.nowMs - days.today - 300_000);
  const at = start + (mix(m, 0xc2b2ae35) % span);
  const hits = ['/', '/about', `/blog/post-${person % 40}`].map((path, i) =>
    queued(null, new Date(at + i * 50_000).toISOString(), {
      token: hex((person * 2 + day) * 7 + 0x3000000),
      person: hex(person + 0x1000000),
      network: `10.${(person >> 16) & 255}.${(person >> 8) & 255}.x`,
      path,
      reason: null,
      self: false,
      source: i === 0 && person % 9 === 0 ? 'github.com' : null,
      page_load: true,
      country: ['DE', 'US', 'GB', 'FR', 'NL'][person % 5]!,
      browser: ['chrome', 'safari', 'firefox'][person % 3]!,
      system: ['windows', 'macos', 'ios', 'android'][person % 4]!,
      device: person % 3 === 0 ? 'mobile' : 'desktop',
      campaign: null,
    }),
  );
  return { message: { v: 1 as const, id: randomUUID(), hits }, person, day };
}

type Backlog = Awaited<ReturnType<typeof fill>>;

/** A backlog kept by the real keeper into memory a chunk at a time, each chunk's documents then written in bulk; nothing folded. */
async function fill(endpoint: string, facts: number, label: string) {
  const { container, store } = await freshLocalStore(endpoint, { prefix: 'fold' });
  const memory = memoryStore();
  const keep = keeper(memory, systemClock);
  const now = Date.now();
  const today = Date.parse(new Date(now).toISOString().slice(0, 10));
  const days = { yesterday: today - 86_400_000, today, nowMs: now };
  const persons = new Set<number>();
  const visits = new Set<number>();
  const began = performance.now();
  let factKb = 0;
  for (let from = 0; from < facts; from += BULK_CHUNK) {
    for (let m = from; m < Math.min(facts, from + BULK_CHUNK); m += 1) {
      const { message, person, day } = messageOf(m, facts, days);
      persons.add(person);
      visits.add(person * 2 + day);
      const kept = await keep(message);
      if (!kept.ok) throw new Error(`message ${m} could not be kept: ${kept.reason}`);
    }
    const chunk = memory.documents.query<{ id: string; pk: string; kind: string }>((doc) => doc.kind === 'fact');
    factKb ||= JSON.stringify(chunk[0]).length / 1024;
    await bulkUpsert(container, chunk);
    for (const fact of chunk) memory.documents.delete(fact.pk, fact.id);
  }
  const rest = memory.documents.query<{ id: string; pk: string; kind: string }>((doc) => doc.kind !== 'store-clock');
  await bulkUpsert(container, rest);
  console.log(
    `${label}: ${fmt(facts)} messages of ${HITS_A_MESSAGE} hits kept by keepHits() into memory ${fmt(BULK_CHUNK)} at a time, and its documents ` +
      `(${fmt(facts)} facts of ~${fmt(factKb, 2)} KB, ${fmt(rest.length)} others: the records) written to the local server in bulk, in ${fmt((performance.now() - began) / 1000)} s: ` +
      `${fmt(persons.size)} persons, ${fmt(visits.size)} visits over yesterday and today`,
  );
  // The Admin count as GET /api/admin/visitors/people reads it.
  const count = () => readPeopleCount({ ...store, clock: systemClock, ...utcZone });
  return { database: container.database.id, facts, persons: persons.size, visits: visits.size, count };
}

type ChildOutcome = { ok: boolean; facts?: number; records?: number; behind?: string | null; reason?: string };
type ChildResult = { outcome: ChildOutcome; ms: number; peakRssMb: number; peakHeapMb: number };

type RunResult = { ok: true; result: ChildResult; wallMs: number } | { ok: false; failure: string; wallMs: number };

function foldRun(endpoint: string, database: string, goal = false): Promise<RunResult> {
  const began = performance.now();
  const args = [
    `--max-old-space-size=${HEAP_MB}`,
    '--import',
    'tsx',
    join(__dirname, 'fold-child.ts'),
    endpoint,
    database,
    ...(goal ? ['goal'] : []),
  ];
  const options = { cwd: join(__dirname, '..'), timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL' as const, maxBuffer: 2 ** 28 };
  return new Promise((resolve) =>
    execFile(process.execPath, args, options, (error, out, err) => {
      const wallMs = performance.now() - began;
      const line = /^RESULT (.*)$/m.exec(out)?.[1];
      if (line !== undefined) return resolve({ ok: true, result: JSON.parse(line) as ChildResult, wallMs });
      const why = error?.killed
        ? `stopped after ${fmt(RUN_TIMEOUT_MS / 60_000)} min`
        : /heap out of memory|Allocation failed/i.test(err)
          ? `ran out of memory (JavaScript heap out of memory at ${HEAP_MB} MB)`
          : `exited ${error?.code ?? error?.signal}: ${err.trim().split('\n').slice(-2).join(' ').slice(0, 300)}`;
      resolve({ ok: false, failure: why, wallMs });
    }),
  );
}

const caughtUp = (run: RunResult) => run.ok && run.result.outcome.ok && (run.result.outcome.behind ?? null) === null;

function shortReason(run: RunResult): string {
  if (!run.ok) return `FAILED: ${run.failure}`;
  const { ok, reason, behind } = run.result.outcome;
  return !ok ? `not ok: ${reason ?? ''}`.slice(0, 160) : behind ? `behind: ${behind}`.slice(0, 160) : 'caught up';
}

const noRuns = () => ({ runs: [] as RunResult[], people: [] as number[], visits: [] as number[], done: false, foldedFacts: 0, ms: 0 });
type Drained = ReturnType<typeof noRuns>;
type Limits = { maxRuns: number; maxMs: number; stopAfterFailures?: number };

/** Runs the fold until it says it is caught up, at most `maxRuns` runs or `maxMs`; prints each run (every 10th past 40). */
async function drain(label: string, endpoint: string, backlog: Backlog, limits: Limits, drained: Drained = noRuns()): Promise<Drained> {
  const began = performance.now();
  let failuresInARow = 0;
  while (drained.runs.length < limits.maxRuns && performance.now() - began < limits.maxMs) {
    const run = await foldRun(endpoint, backlog.database);
    drained.runs.push(run);
    drained.ms += run.wallMs;
    if (run.ok) drained.foldedFacts += run.result.outcome.facts ?? 0;
    const count = await backlog.count();
    drained.people.push(count.people_all_time ?? -1);
    drained.visits.push(count.visits?.all_time ?? 0);
    const index = drained.runs.length;
    if (index <= 40 || index % 10 === 0 || caughtUp(run))
      console.log(
        `  ${label} run ${index}: ${run.ok ? `${fmt(run.result.ms / 1000, 1)} s, peak RSS ${run.result.peakRssMb} MB (heap ${run.result.peakHeapMb} MB), ` + `${fmt(run.result.outcome.facts ?? 0)} facts, ${fmt(run.result.outcome.records ?? 0)} records` : `${fmt(run.wallMs / 1000, 1)} s`}; ` +
          `people_all_time ${counted(count.people_all_time ?? -1)}, visits_all_time ${fmt(count.visits?.all_time ?? 0)}; ${shortReason(run)}`,
      );
    if (caughtUp(run)) {
      drained.done = true;
      break;
    }
    failuresInARow = run.ok ? 0 : failuresInARow + 1;
    if (limits.stopAfterFailures !== undefined && failuresInARow >= limits.stopAfterFailures) break;
  }
  return drained;
}

function summary(label: string, backlog: Backlog, drained: Drained): string {
  const fine = drained.runs.flatMap((run) => (run.ok ? [run.result] : []));
  const times = fine.map((result) => result.ms / 1000);
  const rss = fine.map((result) => result.peakRssMb);
  const heap = fine.map((result) => result.peakHeapMb);
  const moved = drained.people.findIndex((people) => people > 0);
  const exact = drained.people.findIndex((people) => people === backlog.persons);
  const people = drained.people[drained.people.length - 1] ?? -1;
  const visits = drained.visits[drained.visits.length - 1] ?? 0;
  const failed = drained.runs.filter((run) => !run.ok);
  return (
    `${label}: ${drained.done ? 'caught up' : 'NOT caught up'} in ${drained.runs.length} runs (${fmt(drained.ms / 60_000, 1)} min of runs); ` +
    (times.length > 0
      ? `a run min/median/max ${fmt(Math.min(...times), 1)}/${fmt(median(times), 1)}/${fmt(Math.max(...times), 1)} s; ` +
        `peak RSS min/median/max ${Math.min(...rss)}/${median(rss)}/${Math.max(...rss)} MB, max ${Math.max(...rss)} MB (heap ≤ ${Math.max(...heap)} MB of ${HEAP_MB}); `
      : '') +
    (failed.length > 0 ? `${failed.length} run(s) failed (${failed[0]!.ok ? '' : failed[0]!.failure}); ` : '') +
    `people count first moved after run ${moved < 0 ? '-' : moved + 1}, exact after run ${exact < 0 ? '-' : exact + 1}; ` +
    `final people_all_time ${fmt(people)} vs ${fmt(backlog.persons)} persons written (${people === backlog.persons ? 'exact' : 'NOT exact'}), ` +
    `visits_all_time ${fmt(visits)} vs ${fmt(backlog.visits)} expected (${visits === backlog.visits ? 'exact' : 'NOT exact'})`
  );
}

async function plainBacklog(endpoint: string, facts: number, maxMs: number): Promise<void> {
  const label = `${fmt(facts)} facts`;
  const backlog = await fill(endpoint, facts, label);
  await sleep(2_200);
  const drained = await drain(label, endpoint, backlog, { maxRuns: 10_000, maxMs, stopAfterFailures: 2 });
  console.log(summary(label, backlog, drained));
  if (!drained.done && drained.foldedFacts > 0) {
    const rate = drained.foldedFacts / (drained.ms / 1000);
    const left = facts - drained.foldedFacts;
    console.log(
      `${label}: stopped at the ${fmt(maxMs / 60_000)}-minute limit: ${fmt(drained.foldedFacts)} facts folded in ${fmt(drained.ms / 60_000, 1)} min of runs, ` +
        `${fmt(rate)} facts a second; at that rate the whole backlog takes ~${fmt(facts / rate / 60)} min (~${fmt(left / rate / 60)} min more, ` +
        `~${fmt(Math.ceil(facts / rate / (median(drained.runs.flatMap((run) => (run.ok ? [run.result.ms / 1000] : []))) || 1)))} runs)`,
    );
  }
  await localContainer(endpoint, backlog.database).database.delete();
}

/** The backlog drained with THROTTLE of the document calls answered 429, then without. */
async function throttledBacklog(endpoint: string): Promise<void> {
  const label = `${fmt(SMALL)} facts, ${THROTTLE * 100} % throttled`;
  const backlog = await fill(endpoint, SMALL, label);
  const proxy = await storeProxyTo(endpoint, { throttle: THROTTLE });
  try {
    await sleep(2_200);
    const throttled = await drain(`${label}:`, proxy.endpoint, backlog, { maxRuns: THROTTLED_RUNS, maxMs: 30 * 60_000 });
    // Moved: its people or visits grew, or both were whole.
    const forward = throttled.people.every(
      (people, i) =>
        people > (i === 0 ? 0 : throttled.people[i - 1]!) ||
        throttled.visits[i]! > (i === 0 ? 0 : throttled.visits[i - 1]!) ||
        (people === backlog.persons && throttled.visits[i] === backlog.visits),
    );
    console.log(
      `${label}: people_all_time after each throttled run ${throttled.people.map(counted).join(', ')} ` +
        `(${forward ? 'moved forward on every run' : 'did NOT move forward on every run'}), visits_all_time ${throttled.visits.map((visits) => fmt(visits)).join(', ')} ` +
        `of ${fmt(backlog.visits)}; ${fmt(proxy.throttled())} calls answered 429 by the proxy`,
    );
    proxy.setThrottle(0);
    const runsThrottled = throttled.runs.length;
    const after = throttled.done
      ? throttled
      : await drain(`${label}, throttling stopped:`, proxy.endpoint, backlog, { maxRuns: 200, maxMs: 30 * 60_000 }, throttled);
    console.log(summary(`${label} for ${runsThrottled} runs, then not`, backlog, after));
  } finally {
    await proxy.close();
    await localContainer(endpoint, backlog.database).database.delete();
  }
}

/** A goal added today counted back over GOAL_BACK_DAYS days of visitor-days: the runs it takes, each run's time and memory. */
async function goalBack(endpoint: string): Promise<void> {
  const { database, reaching } = await goalBackDays(endpoint);
  const store = localStore(localContainer(endpoint, database));
  const runs: ChildResult[] = [];
  let done = false;
  while (!done && runs.length < 200) {
    const run = await foldRun(endpoint, database, true);
    if (!run.ok) throw new Error(`a run failed: ${run.failure}`);
    if (!run.result.outcome.ok) throw new Error(`a run could not start: ${run.result.outcome.reason ?? ''}`);
    runs.push(run.result);
    const progress = await store.migrations.read(BENCH_GOAL.back);
    done = progress?.doc.done_at != null;
    console.log(
      `  goal counted back, run ${runs.length}: ${fmt(run.result.ms / 1000, 1)} s, peak RSS ${run.result.peakRssMb} MB (heap ${run.result.peakHeapMb} MB); ` +
        `${progress?.doc.slices ?? 0} days counted${done ? ', done' : ''}`,
    );
  }
  const today = new Date().toISOString().slice(0, 10);
  const days = Array.from({ length: GOAL_BACK_DAYS }, (_, n) => addDays(today, -n));
  const rollups = await store.rollupReader.onDays(days);
  const counted = [...rollups.values()].reduce((sum, rollup) => sum + (rollup.goals?.[BENCH_GOAL.name] ?? 0), 0);
  const rss = runs.map((one) => one.peakRssMb);
  console.log(
    `goal counted back over ${fmt(GOAL_BACK_DAYS)} days: ${done ? 'done' : 'NOT done'} in ${runs.length} runs (a day a slice, ` +
      `${fmt(runs.reduce((sum, one) => sum + one.ms, 0) / 1000, 1)} s of runs); peak RSS min/median/max ${Math.min(...rss)}/${median(rss)}/${Math.max(...rss)} MB; ` +
      `conversions ${fmt(counted)} vs ${fmt(reaching)} visitor-days that reach it (${counted === reaching ? 'exact' : 'NOT exact'})`,
  );
  await localContainer(endpoint, database).database.delete();
}

export async function run(): Promise<void> {
  const began = performance.now();
  const parts = (process.env.FOLD_PARTS ?? 'small,throttled,large,goalback').split(',');
  await withServices([cosmosProcess({ heapMb: 16_384 })], async (cosmos) => {
    console.log(
      `each run of the fold in a child process (node --max-old-space-size=${HEAP_MB}), its wall time and its peak resident set (process.resourceUsage().maxRSS, ` +
        `and memoryUsage sampled every 20 ms) measured inside it; the local Cosmos server in a process of its own; the fold's clock is the machine's`,
    );
    if (parts.includes('small')) await plainBacklog(cosmos.endpoint, SMALL, 60 * 60_000);
    if (parts.includes('throttled')) await throttledBacklog(cosmos.endpoint);
    if (parts.includes('large')) await plainBacklog(cosmos.endpoint, LARGE, LARGE_MINUTES * 60_000);
    if (parts.includes('goalback')) await goalBack(cosmos.endpoint);
  });
  console.log(`fold bench took ${fmt((performance.now() - began) / 60_000, 1)} min`);
}
