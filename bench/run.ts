import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

/**
 * `npm run bench`: runs every `bench/*.bench.ts` in turn. Each exports `run(): Promise<void>` and prints its own
 * figures; this prints the machine first, so the figures can be read against it.
 */
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

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
