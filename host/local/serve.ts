import { rootFromEnvironment } from '../composition';
import { startLocalHost } from './host';
import { hostPort, localValues } from './local-settings';
import { dashboardBanner, localCosmosName } from './banner';

/**
 * `npm run host`: the local Functions host alone, against services already running (`npm run services`, or another
 * `npm start`), on `--port <n>` or PORT (default 7071). Several of them share the queue and the store as instances in
 * Azure do: queue messages go to one instance each, and each timer runs in the one instance holding its lease.
 */
async function main() {
  const values = localValues();
  const root = rootFromEnvironment(values, { cosmosName: localCosmosName(values.COSMOS_ENDPOINT) });
  const host = await startLocalHost({ root, port: hostPort(process.argv.slice(2), values) });
  console.log(`Functions host (local)  ${host.url}   (POST ${host.url}/admin/functions/<name> runs a function now)`);
  const { OPERATOR_KEY, ALLOWED_ORIGINS } = root.settings;
  for (const line of dashboardBanner({ url: host.url, operatorKey: OPERATOR_KEY, allowedOrigins: ALLOWED_ORIGINS })) console.log(line);
  console.log('Ctrl-C stops it; the timers it holds pass to another host.');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await host.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
