import { performance } from 'node:perf_hooks';
import * as folding from '../shared/fold/fold';
import { systemClock } from '../shared/core/ports/clock';
import { scanRules } from '../shared/core/subjects/scan-rule';
import { localContainer, localStore } from './local-store';
import { runMain } from './report';

/** One run of the fold in a process of its own (fold.bench.ts), so its peak memory is the fold's alone: prints `RESULT {...}`. */
async function main(): Promise<void> {
  const [endpoint, database] = process.argv.slice(2);
  if (!endpoint || !database) throw new Error('usage: fold-child.ts <Cosmos endpoint> <database>');
  // The local server scans where Azure reads an index: a minute a call.
  const store = localStore(localContainer(endpoint, database, 60_000));
  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed));
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  const outcome = await folding.fold({ store, clock: systemClock, rules: scanRules(10, 60), lateDays: 7 });
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
