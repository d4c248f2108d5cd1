import { rootFromEnvironment } from '../composition';
import { serviceUrl, startAzurite, startCosmos } from './services';
import { startLocalHost } from './host';
import { cosmosContainer, ensureContainer } from '../../adapters/cosmos/client';
import { hostPort, localValues } from './local-settings';
import { forget, localData } from './local-data';
import { dashboardBanner, LOCAL_COSMOS_NAME } from './banner';

/** The port a service's URL names, or `fallback` when there is none (or it names none: its scheme's default). */
const portOf = (url: URL | undefined, fallback: number) => Number(url?.port || fallback);

/**
 * `npm start`: Azurite (blob, queue and table), the local Cosmos server and the local Functions host, on the ports the
 * local settings name (10000-10002, 8081 and 7071 by default). `npm run services` (`--services-only`) starts the
 * services alone, with the container made, for `func start` or for `npm run host` instances. Both keep their data in
 * the data folder (`.local-data/`, or HEADCOUNT_DATA_DIR) and load it on the next start; `--fresh` forgets it first.
 * Ctrl-C stops everything, saving the Cosmos documents one last time.
 */
async function main() {
  const servicesOnly = process.argv.includes('--services-only');
  const values = localValues();
  const storage = values.AzureWebJobsStorage;
  const queuePort = portOf(serviceUrl(storage, 'Queue'), 10001);
  const cosmosPort = portOf(values.COSMOS_ENDPOINT === undefined ? undefined : new URL(values.COSMOS_ENDPOINT), 8081);
  const port = hostPort(process.argv.slice(2), values);
  const data = localData(values);
  if (process.argv.includes('--fresh')) {
    await forget(data);
    console.log(`--fresh: what ${data.shown} held is forgotten; starting empty`);
  }

  // The blob service too: the host keeps its timer locks there, so more hosts (`npm run host`) can join this one.
  const blobAndTable = { blobPort: portOf(serviceUrl(storage, 'Blob'), 10000), tablePort: portOf(serviceUrl(storage, 'Table'), 10002) };
  // STORE=memory, asked for by name, runs without the Cosmos server: the records live in the host, lost on restart.
  const memory = values.STORE === 'memory' && !servicesOnly;
  // The Cosmos server first: a saved file it refuses stops the start before Azurite's process is running.
  // HEADCOUNT_STORE_CLOCK=movable (a test's stack) stamps `_ts` by a clock the test moves forward (cosmos-clock.ts).
  const movableClock = values.HEADCOUNT_STORE_CLOCK === 'movable';
  const cosmos = memory ? null : await startCosmos({ port: cosmosPort, file: data.cosmos, movableClock });
  const azurite = await startAzurite({ port: queuePort, location: data.azurite, blobAndTable });
  console.log(`Azurite blob, queue, table  ${azurite.connectionString.replace(/AccountKey=[^;]+;/, '')}`);
  if (cosmos) {
    const loaded = cosmos.loaded === null ? 'none saved yet' : `${cosmos.loaded} documents loaded`;
    console.log(`Cosmos DB stand-in      ${cosmos.endpoint}  (kept in ${data.shown}: ${loaded}; saved every few seconds while it changes)`);
  } else console.log('Records                 kept in memory (STORE=memory): lost when the host stops');

  const { COSMOS_ENDPOINT: _endpoint, COSMOS_KEY: _key, COSMOS_CLIENT_ID: _client, ...withoutCosmos } = values;
  const root = rootFromEnvironment(
    cosmos
      ? { ...values, AzureWebJobsStorage: azurite.connectionString, COSMOS_ENDPOINT: cosmos.endpoint }
      : { ...withoutCosmos, AzureWebJobsStorage: azurite.connectionString },
    { cosmosName: LOCAL_COSMOS_NAME },
  );
  // In Azure the infrastructure creates the database and container; locally the stack does.
  const { COSMOS_KEY, COSMOS_DATABASE, COSMOS_CONTAINER } = root.settings;
  if (cosmos && COSMOS_KEY !== undefined) {
    await ensureContainer(
      cosmosContainer({ endpoint: cosmos.endpoint, auth: { key: COSMOS_KEY }, database: COSMOS_DATABASE, container: COSMOS_CONTAINER }),
    );
  }
  const host = servicesOnly ? null : await startLocalHost({ root, port });
  if (host) {
    console.log(`Functions host (local)  ${host.url}   (POST ${host.url}/admin/functions/<name> runs a function now)`);
    const { OPERATOR_KEY, ALLOWED_ORIGINS } = root.settings;
    for (const line of dashboardBanner({ url: host.url, operatorKey: OPERATOR_KEY, allowedOrigins: ALLOWED_ORIGINS })) console.log(line);
  } else console.log('Services up for `npm run host` (one or more) or `npm run build && func start`.');
  console.log('Ctrl-C stops them all.');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping…');
    await host?.stop();
    await cosmos?.stop();
    await azurite.stop();
    console.log('stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
