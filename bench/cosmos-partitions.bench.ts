import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Container } from '@azure/cosmos';
import { createHttpServer } from '@vercel/cosmosdb-server';
import { ensureContainer } from '../adapters/cosmos/client';
import { linearQueries } from '../host/local/cosmos-linear-queries';
import { scopeQueriesToPartitions } from '../host/local/cosmos-partitions';
import { freePort } from '../host/local/services';
import { bulkUpsert, localContainer } from './local-store';
import { fmt } from './report';
import { median } from './report';

/** The large partition's documents; `PARTITIONS_BIG` sets fewer (a quick try: as published, 100,000 take minutes). */
const BIG = Number(process.env.PARTITIONS_BIG ?? 100_000);
const SMALL = 1_000;
const RUNS = 5;

function* documents() {
  for (let i = 0; i < BIG; i += 1) yield { id: `big-${i}`, pk: 'big', kind: 'visitor-record', n: i % 100 };
  for (let i = 0; i < SMALL; i += 1) yield { id: `small-${i}`, pk: 'small', kind: 'visitor-record', n: i % 100 };
}

// The filter names the partition too, so the bare server (which would otherwise count every partition) gives the
// same answer. Each stage words its SQL with an alias of its own: the server caches compiled queries by their text,
// and a stage must not reuse code compiled by the one before.
const countSmall = async (container: Container, alias: string) =>
  (
    await container.items
      .query<number>(
        { query: `SELECT VALUE COUNT(1) FROM ${alias} WHERE ${alias}.pk = @pk`, parameters: [{ name: '@pk', value: 'small' }] },
        { partitionKey: 'small' },
      )
      .fetchAll()
  ).resources[0];

/** A run's time in ms and its answer; a failure is an answer too: the bare server can block past Node's HTTP timeouts. */
async function timed(run: () => Promise<unknown>): Promise<{ ms: number; result: unknown }> {
  const started = performance.now();
  const result = await run().catch(
    (error: { code?: unknown; message?: string }) =>
      `failed: ${typeof error.code === 'string' || typeof error.code === 'number' ? error.code : ''} ${(error.message ?? '').split('\n', 1)[0]!.slice(0, 60)}`,
  );
  return { ms: performance.now() - started, result };
}

/**
 * `npm run bench cosmos-partitions`: what docs/local-stack.md quotes of the local Cosmos server's partitions. A
 * partition-scoped COUNT on a 1,000-document partition beside a large one, on the server as published (every query
 * scans the account, and so does the query plan the SDK asks for alongside, with an engine quadratic in the documents
 * it reads: one run), then as `startCosmos` serves it (the engine linear, queries scoped to their partition). That it
 * reads no other partition is test/integration/local-cosmos-partitions.test.ts's to hold.
 */
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
    // The server goes on with the work the SDK gave up on; a point read queues behind it.
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
