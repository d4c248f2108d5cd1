import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Container } from '@azure/cosmos';
import { createHttpServer } from '@vercel/cosmosdb-server';
import { ensureContainer } from '../adapters/cosmos/client';
import { linearQueries } from '../local/cosmos/linear-queries';
import { scopeQueriesToPartitions } from '../local/cosmos/partitions';
import { freePort } from '../local/services';
import { bulkUpsert, localContainer } from './local-store';
import { fmt, median } from './report';

const BIG = Number(process.env.PARTITIONS_BIG ?? 100_000);
const SMALL = 1_000;
const RUNS = 5;

function* documents() {
  for (let i = 0; i < BIG; i += 1) yield { id: `big-${i}`, pk: 'big', kind: 'visitor-record', n: i % 100 };
  for (let i = 0; i < SMALL; i += 1) yield { id: `small-${i}`, pk: 'small', kind: 'visitor-record', n: i % 100 };
}

// The filter names the partition for the bare server; each stage its own alias, as the server caches compiled queries.
async function countSmall(container: Container, alias: string) {
  const query = { query: `SELECT VALUE COUNT(1) FROM ${alias} WHERE ${alias}.pk = @pk`, parameters: [{ name: '@pk', value: 'small' }] };
  return (await container.items.query<number>(query, { partitionKey: 'small' }).fetchAll()).resources[0];
}

/** A run's time in ms and its answer, a failure too: the bare server can block past Node's HTTP timeouts. */
async function timed(run: () => Promise<unknown>): Promise<{ ms: number; result: unknown }> {
  const started = performance.now();
  const result = await run().catch(
    (error: { code?: unknown; message?: string }) =>
      `failed: ${typeof error.code === 'string' || typeof error.code === 'number' ? error.code : ''} ${(error.message ?? '').split('\n', 1)[0]!.slice(0, 60)}`,
  );
  return { ms: performance.now() - started, result };
}

/** `npm run bench cosmos-partitions`: a partition-scoped COUNT beside a large partition on the local Cosmos server as published, then as `startCosmos` serves it. */
export async function run(): Promise<void> {
  const port = await freePort();
  const server: Server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  try {
    const container = localContainer(`http://127.0.0.1:${port}`, 'partitions', 1_800_000);
    await ensureContainer(container);
    const loading = performance.now();
    await bulkUpsert(container, documents());
    console.log(
      `${fmt(BIG)} documents in one partition, ${fmt(SMALL)} in another, loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s`,
    );
    const bare = await timed(() => countSmall(container, 'bare'));
    console.log(`  as published, one run: small partition's COUNT ${bare.ms.toFixed(1)} ms (${String(bare.result)})`);
    // A point read queues behind the work the SDK gave up on.
    await container.item('small-0', 'small').read();

    linearQueries();
    scopeQueriesToPartitions(server);
    const first = await timed(() => countSmall(container, 'first'));
    console.log(`  first partition-scoped COUNT, which indexes the collection by partition: ${first.ms.toFixed(1)} ms`);
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await timed(() => countSmall(container, 'scoped')));
    const scoped = median(runs.map((one) => one.ms));
    console.log(
      `  and scoped to the partition, medians of ${RUNS}: small partition's COUNT ${scoped.toFixed(1)} ms (${String(runs[RUNS - 1]!.result)})`,
    );
    console.log(`  the small partition's COUNT: ${(bare.ms / scoped).toFixed(0)}× faster than as published`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
