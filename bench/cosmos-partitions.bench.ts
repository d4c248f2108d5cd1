import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Container } from '@azure/cosmos';
import { createHttpServer } from '@vercel/cosmosdb-server';
import { cosmosContainer, ensureContainer } from '../adapters/cosmos/client';
import { linearQueries } from '../host/local/cosmos-linear-queries';
import { scopeQueriesToPartitions } from '../host/local/cosmos-partitions';
import { COSMOS_EMULATOR_KEY, freePort } from '../host/local/services';

const BIG = 100_000;
const SMALL = 1_000;
const RUNS = 5;

function* documents() {
  for (let i = 0; i < BIG; i += 1) yield { id: `big-${i}`, pk: 'big', kind: 'visitor-record', n: i % 100 };
  for (let i = 0; i < SMALL; i += 1) yield { id: `small-${i}`, pk: 'small', kind: 'visitor-record', n: i % 100 };
}

async function createAll(container: Container, docs: Iterable<object>, lanes = 64) {
  const source = docs[Symbol.iterator]();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let next = source.next(); !next.done; next = source.next()) await container.items.create(next.value);
    }),
  );
}

// The filter names the partition too, so the bare server (which would otherwise count every partition) gives the
// same answer and the timings compare like with like. Each stage words its SQL with an alias of its own: the server
// caches compiled queries by their text, and a stage must not reuse code compiled by the one before.
const countSmall = async (container: Container, alias: string) =>
  (
    await container.items
      .query<number>(
        { query: `SELECT VALUE COUNT(1) FROM ${alias} WHERE ${alias}.pk = @pk`, parameters: [{ name: '@pk', value: 'small' }] },
        { partitionKey: 'small' },
      )
      .fetchAll()
  ).resources[0];
const countAll = async (container: Container, alias: string) =>
  (await container.items.query<number>(`SELECT VALUE COUNT(1) FROM ${alias}`).fetchAll()).resources[0];
const countBig = async (container: Container, alias: string) =>
  (await container.items.query<number>(`SELECT VALUE COUNT(1) FROM ${alias}`, { partitionKey: 'big' }).fetchAll()).resources[0];

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await run();
  return { ms: performance.now() - start, result };
}

/** As `timed`, but a failure is an answer too: the bare server can block its event loop past Node's HTTP timeouts. */
async function tried<T>(run: () => Promise<T>): Promise<{ ms: number; result: T | string }> {
  const start = performance.now();
  return run().then(
    (result) => ({ ms: performance.now() - start, result }),
    (error: { code?: unknown; message?: string }) => ({
      ms: performance.now() - start,
      result: `failed: ${typeof error.code === 'string' || typeof error.code === 'number' ? error.code : ''} ${(error.message ?? '').split('\n', 1)[0]!.slice(0, 60)}`,
    }),
  );
}

/** The median of `runs` runs, in ms, and the last answer. */
async function median<T>(run: () => Promise<T>, count = RUNS): Promise<{ ms: number; result: T }> {
  const runs: { ms: number; result: T }[] = [];
  for (let i = 0; i < count; i += 1) runs.push(await timed(run));
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  return { ms: sorted[Math.floor(count / 2)]!, result: runs[count - 1]!.result };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * A partition-scoped COUNT on a 1,000-document partition beside a 100,000-document one on the local Cosmos server as
 * published (every query scans the account, and so does the query plan the SDK asks for alongside, with an engine
 * quadratic in the documents it reads: one run), then, with a cross-partition COUNT too, on the same server and documents
 * with the engine made linear (`linearQueries`), then with queries scoped to their partition as well
 * (`scopeQueriesToPartitions`, as `startCosmos` serves them).
 */
export async function run(): Promise<void> {
  const port = await freePort();
  const server: Server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  try {
    const container = cosmosContainer({
      endpoint: `http://127.0.0.1:${port}`,
      auth: { key: COSMOS_EMULATOR_KEY },
      database: 'bench',
      container: 'partitions',
      requestTimeoutMs: 1_800_000,
    });
    await ensureContainer(container);
    const load = await timed(() => createAll(container, documents()));
    console.log(
      `${BIG.toLocaleString('en')} documents in one partition, ${SMALL.toLocaleString('en')} in another, loaded in ${(load.ms / 1000).toFixed(1)} s`,
    );
    const line = (
      what: string,
      small: { ms: number; result?: string | number },
      all: { ms: number; result?: string | number },
      big?: { ms: number; result?: string | number },
    ) =>
      console.log(
        `  ${what}: small partition's COUNT ${ms(small.ms)} (${small.result}), cross-partition COUNT ${ms(all.ms)} (${all.result})${big ? `, big partition's COUNT ${ms(big.ms)} (${big.result})` : ''}`,
      );

    const bare = await tried(() => countSmall(container, 'bare'));
    console.log(`  as published, one run: small partition's COUNT ${ms(bare.ms)} (${bare.result})`);
    // The server goes on with the work the SDK gave up on; a point read queues behind it.
    await container.item('small-0', 'small').read();

    linearQueries();
    const linear = await median(() => countSmall(container, 'linear'));
    const linearAll = await median(() => countAll(container, 'linear'));
    line(`engine made linear, medians of ${RUNS}`, linear, linearAll);

    scopeQueriesToPartitions(server);
    const first = await timed(() => countSmall(container, 'first'));
    const scoped = await median(() => countSmall(container, 'scoped'));
    const scopedAll = await median(() => countAll(container, 'scoped'));
    const scopedBig = await median(() => countBig(container, 'scoped'));
    console.log(`  first partition-scoped COUNT, which indexes the collection by partition: ${ms(first.ms)}`);
    line(`and scoped to the partition, medians of ${RUNS}`, scoped, scopedAll, scopedBig);
    console.log(
      `  the small partition's COUNT: ${(bare.ms / scoped.ms).toFixed(0)}× faster than as published${typeof bare.result === 'string' ? ' (at least: that one failed)' : ''}, ${(linear.ms / scoped.ms).toFixed(1)}× from scoping alone once linear; cross-partition ${(linearAll.ms / scopedAll.ms).toFixed(1)}× from skipping the query plan's scan`,
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
