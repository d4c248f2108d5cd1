import { QueueClient } from '@azure/storage-queue';
import { rootFromEnvironment, type Root, type RootOverrides } from '../../host/composition';
import { startLocalHost, type LocalHost, type LocalHostOptions } from '../../local/host';
import { importQueueName } from '../../shared/ingest/import/queue-name';
import { testEnv } from './env';
import { settle } from './store-clock';
import { countries } from './countries';
import { containerOf } from './cosmos';

export { settle } from './store-clock';

/** A local host for a test, on a free port, with a queue of its own. */
export interface TestHost {
  host: LocalHost;
  root: Root;
  env: Record<string, string | undefined>;
  queue: QueueClient;
  poison: QueueClient;
  /** The imports queue (`<HITS_QUEUE>-imports`) and its poison queue. */
  imports: QueueClient;
  importPoison: QueueClient;
  /** Every message on the queue now, base64-decoded, left on the queue. */
  peek(): Promise<string[]>;
  /**
   * Moves the store's clock past FOLD_SETTLE_SECONDS and a second, so every write so far is settled (no waiting), then
   * runs the fold's timer (`recount`). In memory every write is settled at once.
   */
  fold(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestHost(
  options: { env?: Record<string, string | undefined>; overrides?: RootOverrides } & Omit<LocalHostOptions, 'root' | 'port'> = {},
): Promise<TestHost> {
  const env = testEnv(options.env);
  const root = rootFromEnvironment(env, { countries, ...options.overrides });
  const queue = new QueueClient(env.AzureWebJobsStorage!, env.HITS_QUEUE!);
  const poison = new QueueClient(env.AzureWebJobsStorage!, `${env.HITS_QUEUE!}-poison`);
  const imports = new QueueClient(env.AzureWebJobsStorage!, importQueueName(env.HITS_QUEUE!));
  const importPoison = new QueueClient(env.AzureWebJobsStorage!, `${importQueueName(env.HITS_QUEUE!)}-poison`);
  // Made here as infra/main.bicep makes them in Azure, so a host without queue listeners still finds all four.
  await Promise.all([queue, poison, imports, importPoison].map((client) => client.createIfNotExists()));
  // The container too, as infra/main.bicep makes it: ingest reads each day's secret from it. A test naming its own
  // endpoint (an outage's proxy, one closed) makes its own.
  if (options.env?.COSMOS_ENDPOINT === undefined && root.settings.STORE !== 'memory') await containerOf(env);
  const host = await startLocalHost({ ...options, root, port: 0, timers: options.timers ?? false });
  return {
    host,
    root,
    env,
    queue,
    poison,
    imports,
    importPoison,
    async peek() {
      const texts: string[] = [];
      const seen = await queue.peekMessages({ numberOfMessages: 32 });
      for (const message of seen.peekedMessageItems) texts.push(Buffer.from(message.messageText, 'base64').toString('utf8'));
      return texts;
    },
    async fold() {
      if (root.settings.STORE !== 'memory') await settle(root.settings.FOLD_SETTLE_SECONDS, env.COSMOS_ENDPOINT);
      await host.run('recount');
    },
    stop: () => host.stop(),
  };
}
