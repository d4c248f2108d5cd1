import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { runMain } from './report';

/** `npm run bench [name]`: each `bench/*.bench.ts`'s `run()` in turn, after the machine it runs on. */
async function main() {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`headcount benchmarks on ${cpu} × ${cpus().length}, Node ${process.version}, ${new Date().toISOString()}`);
  const only = process.argv[2];
  const files = readdirSync(__dirname)
    .filter((file) => file.endsWith('.bench.ts'))
    .filter((file) => !only || file.startsWith(only))
    .sort();
  for (const file of files) {
    const bench = (await import(join(__dirname, file))) as { run: () => Promise<void> };
    console.log(`\n## ${file.replace('.bench.ts', '')}`);
    await bench.run();
  }
}

void runMain(main);
