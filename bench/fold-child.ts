import { performance } from 'node:perf_hooks';
import * as folding from '../shared/fold/fold';
import { systemClock } from '../shared/core/ports/clock';
import { scanRules } from '../shared/core/subjects/scan-rule';
import { localContainer, localStore } from './local-store';
import { runMain } from './report';
import { BENCH_GOAL } from './goal-back';
import { goalBackMigration } from '../shared/fold/migrations/goal-back';
import { firstKeptDay } from '../shared/core/store/first-day';
import { utcDay } from '../shared/core/identity/tokens';

/** One run of the fold in a process of its own (fold.bench.ts), so its peak memory is the fold's alone: prints `RESULT {...}`. */
async function main(): Promise<void> {
  const [endpoint, database, goal] = process.argv.slice(2);
  if (!endpoint || !database) throw new Error('usage: fold-child.ts <Cosmos endpoint> <database>');
  // The local server scans where Azure reads an index: a minute a call.
  const store = localStore(localContainer(endpoint, database, 60_000));
  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed));
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  // With `goal`, the goal is the configuration's, added today: counted back by its migration.
  const counting =
    goal === 'goal'
      ? {
          goals: [BENCH_GOAL],
          migrations: [
            goalBackMigration(BENCH_GOAL, {
              rollups: store.rollups,
              periods: store.periods,
              pages: store.visitorDayPages,
              firstDay: () => firstKeptDay(store),
              today: utcDay(systemClock.now()),
            }),
          ],
        }
      : {};
  const outcome = await folding.fold({ store, clock: systemClock, rules: scanRules(10, 60), lateDays: 7, ...counting });
  const ms = performance.now() - started;
  clearInterval(sampler);
  sample();
  // maxRSS is the process's peak resident set, in KB.
  const result = {
    outcome,
    ms,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    peakHeapMb: Math.round(peakHeap / 1_048_576),
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

void runMain(main);
