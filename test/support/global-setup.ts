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
  const azurite = await startAzurite({ blobAndTable: { blobPort: await freePort(), tablePort: await freePort() } });
  const cosmos = await startCosmos();
  project.provide('stack', { queueConnectionString: azurite.connectionString, cosmosEndpoint: cosmos.endpoint });
  return async () => {
    await cosmos.stop();
    await azurite.stop();
  };
}
