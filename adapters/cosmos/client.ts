import { CosmosClient, type Container, type IndexingPolicy } from '@azure/cosmos';
import type { TokenCredential } from '@azure/identity';

/** Where the container is and how to reach it: a key (local server, keys) or a credential (managed identity). */
export interface CosmosLocation {
  endpoint: string;
  auth: { key: string } | { credential: TokenCredential };
  database: string;
  container: string;
  /** How long one call may take; 5 s unless said (a benchmark on the local server, which scans, says more). */
  requestTimeoutMs?: number;
}

/**
 * One client for the process, as the SDK wants. A call gives up after a few seconds and a few retries, so a store that
 * is down fails the invocation quickly and the queue retries the message later, rather than holding it.
 */
export function cosmosContainer(location: CosmosLocation): Container {
  const client = new CosmosClient({
    endpoint: location.endpoint,
    ...('key' in location.auth ? { key: location.auth.key } : { aadCredentials: location.auth.credential }),
    connectionPolicy: {
      // The account's own endpoint list would send calls elsewhere (the local server names an https:// one it does not
      // serve); the app is single-region, so the endpoint it was given is the one it uses.
      enableEndpointDiscovery: false,
      requestTimeout: location.requestTimeoutMs ?? 5_000,
      // A throttled call (429) waits the retry-after the account names, up to 9 times and 20 s in all: the budget of one call.
      retryOptions: { maxRetryAttemptCount: 9, fixedRetryIntervalInMilliseconds: 0, maxWaitTimeInSeconds: 20 },
    },
  });
  return client.database(location.database).container(location.container);
}

/**
 * The container's composite indexes, as infra/app/cosmos.bicep sets them: the orders the paged queries read in (a day's
 * visitor-days by daily token for building its rollup, and first seen first for the day's table). Cosmos DB answers a
 * query ordered by two fields only with such an index.
 */
export const COMPOSITE_INDEXES = [
  [
    { path: '/token', order: 'ascending' },
    { path: '/id', order: 'ascending' },
  ],
  [
    { path: '/first_seen', order: 'ascending' },
    { path: '/id', order: 'ascending' },
  ],
] as const;

const INDEXING_POLICY: IndexingPolicy = {
  indexingMode: 'consistent',
  automatic: true,
  includedPaths: [{ path: '/*' }],
  excludedPaths: [{ path: '/"_etag"/?' }],
  compositeIndexes: COMPOSITE_INDEXES.map((index) => index.map((part) => ({ ...part }))),
};

/**
 * Creates the database and the container if missing: partition key `/pk`, no expiry by default (`defaultTtl` -1, so
 * a document's own `ttl` applies), and the composite indexes. A container made before them gets them. The local stack
 * calls it; in Azure the infrastructure creates both.
 */
export async function ensureContainer(container: Container): Promise<void> {
  const { database } = await container.database.client.databases.createIfNotExists({ id: container.database.id });
  const definition = { id: container.id, partitionKey: { paths: ['/pk'] }, defaultTtl: -1, indexingPolicy: INDEXING_POLICY };
  const made = await database.containers.createIfNotExists(definition);
  const held = made?.resource?.indexingPolicy?.compositeIndexes ?? [];
  if (made?.resource && held.length < COMPOSITE_INDEXES.length) await database.container(container.id).replace(definition);
}
