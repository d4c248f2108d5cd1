import type { TestProject } from 'vitest/node';
import { startAzurite, startCosmos } from '../../host/local/services';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { queueConnectionString: string; cosmosEndpoint: string };
  }
}

/** One Azurite and one local Cosmos server for the whole run; each test file uses queues and databases of its own. */
export default async function setup(project: TestProject) {
  const azurite = await startAzurite();
  const cosmos = await startCosmos();
  project.provide('stack', { queueConnectionString: azurite.connectionString, cosmosEndpoint: cosmos.endpoint });
  return async () => {
    await cosmos.stop();
    await azurite.stop();
  };
}
