import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startAzurite, startCosmos } from '../../host/local/services';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { queueConnectionString: string; cosmosEndpoint: string };
  }
}

/**
 * One Azurite (blob, queue and table: the timer locks and the replay counts are blobs) and one local Cosmos server for
 * the whole run; each test file uses queues, databases and lock names of its own.
 */
export default async function setup(project: TestProject) {
  // The hosting networks' table the ingest reads, made from the installed network data when it is missing or stale.
  const root = join(__dirname, '..', '..');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'scripts', 'build-networks.ts'), '--if-stale'],
    { cwd: root, stdio: 'inherit' },
  );
  const azurite = await startAzurite({ blobAndTable: { blobPort: await freePort(), tablePort: await freePort() } });
  const cosmos = await startCosmos();
  project.provide('stack', { queueConnectionString: azurite.connectionString, cosmosEndpoint: cosmos.endpoint });
  return async () => {
    await cosmos.stop();
    await azurite.stop();
  };
}
