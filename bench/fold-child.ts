import { performance } from 'node:perf_hooks';
import * as folding from '../shared/fold/fold';
import { systemClock } from '../shared/core/ports/clock';
import { scanRules } from '../shared/core/subjects/scan-rule';
import { localContainer, localStore } from './local-store';

/** One run of the fold in a process of its own (fold.bench.ts), so its peak memory is the fold's alone: prints `RESULT {...}`. */
async function main(): Promise<void> {
  const endpoint = process.env.FOLD_CHILD_ENDPOINT;
  const database = process.env.FOLD_CHILD_DATABASE;
  if (!endpoint || !database) throw new Error('FOLD_CHILD_ENDPOINT and FOLD_CHILD_DATABASE are required');
  // The local server scans where Azure reads an index: a minute a call.
  const store = localStore(localContainer(endpoint, database, 60_000));
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  const outcome = await folding.fold({ store, clock: systemClock, rules: scanRules(10, 60), lateDays: 7 });
  const ms = performance.now() - started;
  clearInterval(sampler);
  sample();
  const mb = (bytes: number) => Math.round(bytes / 1_048_576);
  const result = {
    outcome,
    ms,
    peakRssMb: Math.max(mb(peakRss), Math.round(process.resourceUsage().maxRSS / 1024)),
    peakHeapMb: mb(peakHeap),
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
