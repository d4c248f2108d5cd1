import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePorts, startAzurite, startCosmos } from '../../local/services';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { queueConnectionString: string; cosmosEndpoint: string };
  }
}

/**
 * One Azurite (blob, queue and table: the timer locks and the replay counts are blobs) and one local Cosmos server for
 * the whole run; each test file uses queues, databases and lock names of its own. The Cosmos server's clock only moves
 * forward, so one file moving it past its settle margin leaves another's watermarks behind its writes, as real time would.
 */
export default async function setup(project: TestProject) {
  // The hosting networks' table the ingest reads, made from the installed network data when it is missing or stale.
  const root = join(__dirname, '..', '..');
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-networks.ts'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
  });
  // With a clock a request can ask to be served at (azurite-clock.cjs): a message's expiry is seen without waiting.
  const [port, blobPort, tablePort] = (await freePorts(3)) as [number, number, number];
  const azurite = await startAzurite({
    port,
    blobAndTable: { blobPort, tablePort },
    preload: join(__dirname, 'azurite-clock.cjs'),
  });
  // Its `_ts` clock is moved forward by the tests' folds (test/support/store-clock.ts) rather than waited for.
  const cosmos = await startCosmos({ movableClock: true });
  project.provide('stack', { queueConnectionString: azurite.connectionString, cosmosEndpoint: cosmos.endpoint });
  return async () => {
    await cosmos.stop();
    await azurite.stop();
  };
}
