import { ManagedIdentityCredential, type TokenCredential } from '@azure/identity';
import { describeProblems, readSettings, type Settings } from '../shared/config/settings';
import { systemClock, systemScheduler, type Clock, type Scheduler } from '../shared/ports/clock';
import { consoleLogger, type Logger } from '../shared/ports/logger';
import type { HitQueue } from '../shared/ports/queue';
import { groupCommit, type GroupCommit } from '../shared/ingest/group-commit';
import type { PoisonQueue, ReplayLedger } from '../shared/ports/poison';
import type { IdentityRules } from '../shared/hits/classify';
import type { ReceiveDeps } from '../shared/ingest/receive';
import { azureHitQueue, queueClient, type QueueLocation } from '../adapters/azure-hit-queue';
import type { Store } from '../shared/store';
import { cosmosContainer } from '../adapters/cosmos/client';
import { cosmosStore } from '../adapters/cosmos/store';
import { memoryStore } from '../adapters/memory/store';
import { azurePoisonQueue } from '../adapters/azure-poison-queue';
import { blobCall, blobLocationFromConnectionString, type BlobCall, type BlobLocation } from '../adapters/azure-blob';
import { blobReplayLedger } from '../adapters/azure-replay-ledger';
import { packagedCountries } from '../adapters/files/countries';
import { hostingNetworks } from '../adapters/files/networks';
import type { HostingNetworks } from '../shared/identity/network-table';
import type { ImportDeps } from '../shared/import/receive';
import { importQueueName } from '../shared/import/queue-name';
import { adminAccess, type AdminAccess } from '../shared/admin/auth';
import { agentVerdicts } from '../shared/identity/agent';

/** Everything the functions are made from, built once per process. */
export interface Root {
  settings: Settings;
  clock: Clock;
  logger: Logger;
  hitQueue: HitQueue;
  /** The hits queue behind group commit, one for the process: both ingest endpoints share its batches. */
  hitSink: GroupCommit;
  /** What the ingest endpoints read. */
  receive: ReceiveDeps;
  /** The imports queue (`<HITS_QUEUE>-imports`): imported hits travel apart from live ones. */
  importQueue: HitQueue;
  /** What the import endpoint reads. */
  imports: ImportDeps;
  /** Where visitor records, summaries and activity are kept: Cosmos DB, or memory when no endpoint is set. */
  store: Store;
  /** The hits queue's poison queue, `<HITS_QUEUE>-poison`. */
  poisonQueue: PoisonQueue;
  /** The imports queue's poison queue, `<HITS_QUEUE>-imports-poison`. */
  importPoisonQueue: PoisonQueue;
  /** How often each poisoned message has been put back (blobs beside the Functions host's own). */
  replayLedger: ReplayLedger;
  /** The storage account's Blob service (the timer locks, the replay counts); null when the storage has none. */
  blob: BlobCall | null;
  /** The Admin sessions and the slowdown of failed key checks, one for the process, so every admin route slows the same guesser. */
  admin: AdminAccess;
}

/** Parts a test or the local host may supply instead of the ones built from the settings. */
export type RootOverrides = Partial<
  Pick<Root, 'clock' | 'logger' | 'hitQueue' | 'importQueue' | 'store' | 'poisonQueue' | 'importPoisonQueue' | 'replayLedger' | 'blob'>
> & {
  /** The timers group commit's windows run on. */
  scheduler?: Scheduler;
  /** The hosting networks' table, instead of the one built at install time. */
  networks?: HostingNetworks;
  /**
   * What the store's `source` calls the Cosmos DB account it reads (default `Azure Cosmos DB`): the local stack passes
   * `the local Cosmos DB stand-in`, so a figure is never said to come from Azure when it does not.
   */
  cosmosName?: string;
};

/**
 * A credential for Azure services: the user-assigned identity when its client id is given, else the system-assigned
 * one. Never a default chain: like the Functions host with `credential: managedidentity`, the app uses the managed
 * identity and nothing else, so it cannot pick up a developer's sign-in or a stray service principal.
 */
export function credentialFor(clientId: string | undefined): TokenCredential {
  return clientId ? new ManagedIdentityCredential({ clientId }) : new ManagedIdentityCredential();
}

/** Where the queue is, from the settings: the connection string, or the endpoint with a managed identity. */
export function queueLocation(settings: Settings): QueueLocation {
  if (settings.AzureWebJobsStorage !== undefined) return { connectionString: settings.AzureWebJobsStorage };
  return { serviceUri: settings.AzureWebJobsStorage__queueServiceUri!, credential: credentialFor(settings.AzureWebJobsStorage__clientId) };
}

/** Where the Blob service is, from the settings: the connection string's, or the endpoint with a managed identity. */
export function blobLocation(settings: Settings): BlobLocation | null {
  if (settings.AzureWebJobsStorage !== undefined) return blobLocationFromConnectionString(settings.AzureWebJobsStorage);
  return { endpoint: settings.AzureWebJobsStorage__blobServiceUri!, credential: credentialFor(settings.AzureWebJobsStorage__clientId) };
}

/** A ledger that cannot count, for storage without a Blob service: nothing is replayed without a count. */
const noLedger: ReplayLedger = {
  read: async () => ({ ok: false, error: { reason: 'the storage has no Blob service to keep replay counts in' } }),
  record: async () => ({ ok: false, error: { reason: 'the storage has no Blob service to keep replay counts in' } }),
};

/**
 * The store from the settings: one Cosmos DB container client for the process (a key, or the managed identity), or
 * memory, only when STORE=memory asks for it by name (the settings refuse it in Azure). `cosmosName` is what the
 * store's `source` calls the account.
 */
export function storeFor(settings: Settings, cosmosName = 'Azure Cosmos DB'): Store {
  if (settings.STORE === 'memory') return memoryStore();
  if (settings.COSMOS_ENDPOINT === undefined) throw new Error('COSMOS_ENDPOINT: is required unless STORE is memory');
  const auth = settings.COSMOS_KEY !== undefined ? { key: settings.COSMOS_KEY } : { credential: credentialFor(settings.COSMOS_CLIENT_ID) };
  const container = cosmosContainer({
    endpoint: settings.COSMOS_ENDPOINT,
    auth,
    database: settings.COSMOS_DATABASE,
    container: settings.COSMOS_CONTAINER,
  });
  return cosmosStore(container, { settleSeconds: settings.FOLD_SETTLE_SECONDS, name: cosmosName });
}

/** The identity rules from the settings, with the hosting networks' table (read from the package once per process). */
export function identityRules(settings: Settings, networks: HostingNetworks = hostingNetworks()): IdentityRules {
  return {
    networks,
    hashKey: settings.HASH_KEY,
    selfNetworks: settings.SELF_NETWORKS,
    selfAgentTag: settings.SELF_AGENT_TAG,
    ignoredPaths: settings.IGNORED_PATHS,
    countries: packagedCountries,
    agents: agentVerdicts(),
  };
}

/** The composition root: every dependency built once from validated settings, any of them replaceable. */
export function buildRoot(settings: Settings, overrides: RootOverrides = {}): Root {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? consoleLogger();
  const hitQueue = overrides.hitQueue ?? azureHitQueue(queueClient(queueLocation(settings), settings.HITS_QUEUE));
  const hitSink = groupCommit(
    hitQueue,
    { windowMs: settings.INGEST_WINDOW_MS, maxHits: settings.INGEST_MESSAGE_MAX_HITS },
    { scheduler: overrides.scheduler ?? systemScheduler, logger },
  );
  const store = overrides.store ?? storeFor(settings, overrides.cosmosName);
  const location = overrides.blob === undefined ? blobLocation(settings) : null;
  const blob = overrides.blob !== undefined ? overrides.blob : location ? blobCall(location) : null;
  const poisonQueue = overrides.poisonQueue ?? azurePoisonQueue(queueClient(queueLocation(settings), `${settings.HITS_QUEUE}-poison`));
  const replayLedger = overrides.replayLedger ?? (blob ? blobReplayLedger(blob) : noLedger);
  const importQueue = overrides.importQueue ?? azureHitQueue(queueClient(queueLocation(settings), importQueueName(settings.HITS_QUEUE)));
  const importPoisonQueue =
    overrides.importPoisonQueue ?? azurePoisonQueue(queueClient(queueLocation(settings), `${importQueueName(settings.HITS_QUEUE)}-poison`));
  const rules = identityRules(settings, overrides.networks);
  return {
    settings,
    clock,
    logger,
    hitQueue,
    hitSink,
    store,
    poisonQueue,
    importPoisonQueue,
    replayLedger,
    blob,
    importQueue,
    admin: adminAccess({ clock, sessionHours: settings.ADMIN_SESSION_HOURS, trustedProxyHops: settings.TRUSTED_PROXY_HOPS }),
    imports: { rules, queue: importQueue, clock, store, ingestKey: settings.INGEST_KEY, allowedOrigins: settings.ALLOWED_ORIGINS },
    receive: {
      rules,
      sink: hitSink,
      clock,
      logger,
      receive: {
        ingestKey: settings.INGEST_KEY,
        operatorKey: settings.OPERATOR_KEY,
        trustedProxyHops: settings.TRUSTED_PROXY_HOPS,
        hitMaxAgeDays: settings.HIT_MAX_AGE_DAYS,
        allowedOrigins: settings.ALLOWED_ORIGINS,
      },
      subjects: { mode: settings.IDENTITY_MODE, store: store.subjects },
    },
  };
}

/** The root from an environment; a missing or malformed setting throws one message naming each. */
export function rootFromEnvironment(env: Record<string, string | undefined>, overrides: RootOverrides = {}): Root {
  const read = readSettings(env);
  if (!read.ok) throw new Error(describeProblems(read.problems));
  return buildRoot(read.settings, overrides);
}
