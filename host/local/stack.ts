import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { rootFromEnvironment } from '../composition';
import { startAzurite, startCosmos, azuriteConnectionString } from './services';
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

/**
 * `npm start`: Azurite's queue service, the local Cosmos server and the local Functions host, on the ports the local
 * settings name (10001, 8081 and 7071 by default). Ctrl-C stops all three.
 */
async function main() {
  const values = localValues();
  const queuePort = Number(/QueueEndpoint=http:\/\/[^:]+:(\d+)/.exec(values.AzureWebJobsStorage ?? '')?.[1] ?? 10001);
  const cosmosPort = portOf(values.COSMOS_ENDPOINT, 8081);
  const hostPort = Number(values.FUNCTIONS_HTTPWORKER_PORT ?? values.PORT ?? 7071);

  const azurite = await startAzurite({ port: queuePort, location: process.env.AZURITE_LOCATION });
  console.log(`Azurite queue service   ${azuriteConnectionString(azurite.port).split('QueueEndpoint=')[1]}`);
  const cosmos = await startCosmos({ port: cosmosPort });
  console.log(`Cosmos DB (local)       ${cosmos.endpoint}  (in memory: documents are lost when it stops)`);

  const root = rootFromEnvironment({ ...values, AzureWebJobsStorage: azurite.connectionString, COSMOS_ENDPOINT: cosmos.endpoint });
  // In Azure the infrastructure creates the database and container; locally the stack does.
  const { COSMOS_KEY, COSMOS_DATABASE, COSMOS_CONTAINER } = root.settings;
  if (COSMOS_KEY !== undefined) {
    await ensureContainer(cosmosContainer({ endpoint: cosmos.endpoint, auth: { key: COSMOS_KEY }, database: COSMOS_DATABASE, container: COSMOS_CONTAINER }));
  }
  const host = await startLocalHost({ root, port: hostPort });
  console.log(`Functions host (local)  ${host.url}/api   (POST ${host.url}/admin/functions/<name> runs a function now)`);
  console.log('Ctrl-C stops all three.');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping…');
    await host.stop();
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
