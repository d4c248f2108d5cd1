import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { rootFromEnvironment } from '../composition';
import { startAzurite, startCosmos } from './services';
import { startLocalHost } from './host';
import { cosmosContainer, ensureContainer } from '../../adapters/cosmos/client';

const projectRoot = join(__dirname, '..', '..');

const localSettingsSchema = z.object({ Values: z.record(z.string(), z.string()) });

/** The local values: local.settings.json when there is one, else the example, with the environment over both. */
function localValues(): Record<string, string | undefined> {
  const own = join(projectRoot, 'local.settings.json');
  const file = existsSync(own) ? own : join(projectRoot, 'local.settings.example.json');
  const parsed = localSettingsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: Values must be an object of strings`);
  return { ...parsed.data.Values, ...process.env };
}

const portOf = (url: string | undefined, fallback: number) => {
  const match = /:(\d+)/.exec(new URL(url ?? `http://127.0.0.1:${fallback}`).host);
  return match ? Number(match[1]) : fallback;
};

const endpointPort = (connection: string | undefined, kind: string, fallback: number) =>
  Number(new RegExp(`${kind}Endpoint=http://[^:]+:(\\d+)`).exec(connection ?? '')?.[1] ?? fallback);

/**
 * `npm start`: Azurite's queue service, the local Cosmos server and the local Functions host, on the ports the local
 * settings name (10001, 8081 and 7071 by default). `npm run services` (`--services-only`) starts the services the real
 * host needs for `func start` instead: Azurite's blob, queue and table services and the Cosmos server, with the
 * container made. Ctrl-C stops everything.
 */
async function main() {
  const servicesOnly = process.argv.includes('--services-only');
  const values = localValues();
  const storage = values.AzureWebJobsStorage;
  const queuePort = endpointPort(storage, 'Queue', 10001);
  const cosmosPort = portOf(values.COSMOS_ENDPOINT, 8081);
  const hostPort = Number(values.FUNCTIONS_HTTPWORKER_PORT ?? values.PORT ?? 7071);

  const blobAndTable = servicesOnly ? { blobPort: endpointPort(storage, 'Blob', 10000), tablePort: endpointPort(storage, 'Table', 10002) } : undefined;
  const azurite = await startAzurite({ port: queuePort, location: process.env.AZURITE_LOCATION, blobAndTable });
  console.log(`Azurite ${servicesOnly ? 'blob, queue, table' : 'queue service  '}  ${azurite.connectionString.replace(/AccountKey=[^;]+;/, '')}`);
  const cosmos = await startCosmos({ port: cosmosPort });
  console.log(`Cosmos DB (local)       ${cosmos.endpoint}  (in memory: documents are lost when it stops)`);

  const root = rootFromEnvironment({ ...values, AzureWebJobsStorage: azurite.connectionString, COSMOS_ENDPOINT: cosmos.endpoint });
  // In Azure the infrastructure creates the database and container; locally the stack does.
  const { COSMOS_KEY, COSMOS_DATABASE, COSMOS_CONTAINER } = root.settings;
  if (COSMOS_KEY !== undefined) {
    await ensureContainer(cosmosContainer({ endpoint: cosmos.endpoint, auth: { key: COSMOS_KEY }, database: COSMOS_DATABASE, container: COSMOS_CONTAINER }));
  }
  const host = servicesOnly ? null : await startLocalHost({ root, port: hostPort });
  if (host) console.log(`Functions host (local)  ${host.url}/api   (POST ${host.url}/admin/functions/<name> runs a function now)`);
  else console.log('Services up for `npm run build && func start`.');
  console.log('Ctrl-C stops them all.');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping…');
    await host?.stop();
    await cosmos.stop();
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
