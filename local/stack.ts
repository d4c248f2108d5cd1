import { buildRoot } from '../host/composition';
import { describeProblems, readSettings } from '../host/settings';
import { azuriteConnectionString, serviceUrl, startAzurite, startCosmos } from './services';
import { startLocalHost } from './host';
import { cosmosContainer, ensureContainer } from '../adapters/cosmos/client';
import { localPort, localValues, plainPort, readLocalSettings } from './local-settings';
import { forget, localData } from './local-data';
import { dashboardBanner, LOCAL_COSMOS_NAME } from './banner';
import { countMe } from './count-me';
import { runMain, stopOnSignal } from './run';

/** A URL naming no port uses its scheme's default. */
const portOf = (url: URL | undefined, fallback: number) => Number(url?.port || fallback);

type Started = () => Promise<void>;

/**
 * `npm start`: Azurite, the local Cosmos server and the local Functions host; `--services-only` starts the services alone.
 * Data is kept between starts, `--fresh` forgets it, and a failed start stops what it started.
 */
async function main() {
  const argv = process.argv.slice(2);
  const servicesOnly = argv.includes('--services-only');
  const local = readLocalSettings();
  const values = localValues(local);
  const storage = values.AzureWebJobsStorage;
  const queuePort = portOf(serviceUrl(storage, 'Queue'), 10001);
  // The host keeps its timer locks in blobs, so more hosts (`npm run host`) can join this one.
  const blobAndTable = { blobPort: portOf(serviceUrl(storage, 'Blob'), 10000), tablePort: portOf(serviceUrl(storage, 'Table'), 10002) };
  const endpoint = values.COSMOS_ENDPOINT;
  const malformed = endpoint !== undefined && !URL.canParse(endpoint);
  const cosmosPort = portOf(endpoint === undefined || malformed ? undefined : new URL(endpoint), 8081);
  const { port } = localPort(argv, values, local);
  // STORE=memory, asked for by name, runs without the Cosmos server: the records live in the host, lost on restart.
  const memory = values.STORE === 'memory' && !servicesOnly;

  // Checked before anything starts, with the stack's own service addresses.
  const { COSMOS_ENDPOINT: _endpoint, COSMOS_KEY: _key, COSMOS_CLIENT_ID: _client, ...withoutCosmos } = values;
  const read = readSettings({
    // An endpoint that is no URL is left as it is, for the check to name it.
    ...(memory ? withoutCosmos : { ...values, COSMOS_ENDPOINT: malformed ? endpoint : `http://127.0.0.1:${cosmosPort}` }),
    AzureWebJobsStorage: azuriteConnectionString(queuePort, blobAndTable),
  });
  if (!read.ok) throw new Error(describeProblems(read.problems));
  const { settings } = read;
  const me = servicesOnly ? null : countMe(argv, values, settings.SELF_NETWORKS);
  if (me !== null && 'refused' in me) throw new Error(me.refused);
  const countedAs = me === null || 'refused' in me ? null : me.address;

  const data = localData(values);
  if (argv.includes('--fresh')) {
    await forget(data);
    console.log(`--fresh: what ${data.shown} held is forgotten; starting empty`);
  }
  const started: Started[] = [];
  try {
    await startAll();
  } catch (error) {
    // Last first, so the next start finds its ports free.
    for (const stop of started.reverse()) await stop().catch(() => undefined);
    throw error;
  }

  async function startAll() {
    // The Cosmos server first, so a saved file it refuses stops the start before Azurite runs.
    // HEADCOUNT_STORE_CLOCK=movable stamps `_ts` by a clock the test moves forward (cosmos/clock.ts).
    const movableClock = values.HEADCOUNT_STORE_CLOCK === 'movable';
    const cosmos = memory ? null : await startCosmos({ port: cosmosPort, file: data.cosmos, movableClock });
    if (cosmos) started.push(() => cosmos.stop());
    const azurite = await startAzurite({ port: queuePort, location: data.azurite, blobAndTable });
    started.push(() => azurite.stop());
    console.log(`Azurite blob, queue, table  ${azurite.connectionString.replace(/AccountKey=[^;]+;/, '')}`);
    if (cosmos) {
      const loaded = cosmos.loaded === null ? 'none saved yet' : `${cosmos.loaded} documents loaded`;
      console.log(
        `Cosmos DB stand-in      ${cosmos.endpoint}  (kept in ${data.shown}: ${loaded}; saved every few seconds while it changes)`,
      );
    } else console.log('Records                 kept in memory (STORE=memory): lost when the host stops');

    const root = buildRoot(settings, { cosmosName: LOCAL_COSMOS_NAME });
    // In Azure the infrastructure creates the database and container; locally the stack does.
    const { COSMOS_KEY, COSMOS_DATABASE, COSMOS_CONTAINER } = root.settings;
    if (cosmos && COSMOS_KEY !== undefined) {
      await ensureContainer(
        cosmosContainer({ endpoint: cosmos.endpoint, auth: { key: COSMOS_KEY }, database: COSMOS_DATABASE, container: COSMOS_CONTAINER }),
      );
    }
    const host = servicesOnly ? null : await startLocalHost({ root, port, loopbackAs: countedAs ?? undefined });
    if (host) {
      started.push(() => host.stop());
      console.log(`Functions host (local)  ${host.url}   (POST ${host.url}/admin/functions/<name> runs a function now)`);
      const { OPERATOR_KEY, ALLOWED_ORIGINS, SITES } = root.settings;
      const banner = dashboardBanner({
        url: host.url,
        plainPort: plainPort(local),
        operatorKey: OPERATOR_KEY,
        allowedOrigins: ALLOWED_ORIGINS,
        sites: SITES,
        countedAs,
      });
      for (const line of banner) console.log(line);
    } else console.log('Services up for `npm run host` (one or more) or `npm run build && func start`.');
    console.log('Ctrl-C stops them all.');
  }

  stopOnSignal(async () => {
    console.log('\nstopping…');
    for (const one of started.reverse()) await one();
    console.log('stopped.');
  });
}

runMain(main);
