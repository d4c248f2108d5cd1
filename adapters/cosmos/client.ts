import { CosmosClient, type Container, type IndexingPolicy } from '@azure/cosmos';
import type { TokenCredential } from '@azure/identity';

/** A key for the local server and keys, a credential for a managed identity. */
export interface CosmosLocation {
  endpoint: string;
  auth: { key: string } | { credential: TokenCredential };
  database: string;
  container: string;
  /** 5 s unless said; a benchmark on the local server, which scans, says more. */
  requestTimeoutMs?: number;
}

/** One client a process, as the SDK wants; calls give up quickly so the queue retries the message rather than holding it. */
export function cosmosContainer(location: CosmosLocation): Container {
  const client = new CosmosClient({
    endpoint: location.endpoint,
    ...('key' in location.auth ? { key: location.auth.key } : { aadCredentials: location.auth.credential }),
    connectionPolicy: {
      // The app is single-region, and the local server advertises an https:// endpoint it does not serve.
      enableEndpointDiscovery: false,
      requestTimeout: location.requestTimeoutMs ?? 5_000,
      // A 429 waits the account's retry-after, up to 9 times and 20 s in all.
      retryOptions: { maxRetryAttemptCount: 9, fixedRetryIntervalInMilliseconds: 0, maxWaitTimeInSeconds: 20 },
    },
  });
  return client.database(location.database).container(location.container);
}

/** As infra/app/cosmos.bicep sets them: Cosmos DB orders a query by two fields only with such an index. */
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

/**
 * As infra/app/cosmos.bicep sets them: a write costs less for every string not indexed, and no query filters or orders by
 * a sketch or a packed fact (a test holds the queries to it).
 */
export const EXCLUDED_PATHS = [
  '/"_etag"/?',
  '/packed/?',
  '/people_sketch/*',
  '/new_sketch/*',
  '/returning_sketch/*',
  '/first_days/*',
] as const;

const INDEXING_POLICY: IndexingPolicy = {
  indexingMode: 'consistent',
  automatic: true,
  includedPaths: [{ path: '/*' }],
  excludedPaths: EXCLUDED_PATHS.map((path) => ({ path })),
  compositeIndexes: COMPOSITE_INDEXES.map((index) => index.map((part) => ({ ...part }))),
};

/** `defaultTtl` -1 lets each document's own `ttl` apply; in Azure the infrastructure creates both instead. */
export async function ensureContainer(container: Container): Promise<void> {
  const { database } = await container.database.client.databases.createIfNotExists({ id: container.database.id });
  const definition = { id: container.id, partitionKey: { paths: ['/pk'] }, defaultTtl: -1, indexingPolicy: INDEXING_POLICY };
  const made = await database.containers.createIfNotExists(definition);
  const held = made?.resource?.indexingPolicy?.compositeIndexes ?? [];
  if (made?.resource && held.length < COMPOSITE_INDEXES.length) await database.container(container.id).replace(definition);
}
