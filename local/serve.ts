import { rootFromEnvironment } from '../host/composition';
import { startLocalHost } from './host';
import { localPort, localValues, plainPort, readLocalSettings } from './local-settings';
import { dashboardBanner, localCosmosName } from './banner';
import { runMain, stopOnSignal } from './run';

/** `npm run host`: the local Functions host alone, against services already running; instances share queue and store as in Azure. */
async function main() {
  const local = readLocalSettings();
  const values = localValues(local);
  const { port } = localPort(process.argv.slice(2), values, local);
  const root = rootFromEnvironment(values, { cosmosName: localCosmosName(values.COSMOS_ENDPOINT) });
  const host = await startLocalHost({ root, port });
  console.log(`Functions host (local)  ${host.url}   (POST ${host.url}/admin/functions/<name> runs a function now)`);
  console.log(`Mail (outbox)          ${host.url}/admin/outbox`);
  const { OPERATOR_KEY, ALLOWED_ORIGINS, SITES } = root.settings;
  const banner = dashboardBanner({
    url: host.url,
    plainPort: plainPort(local),
    operatorKey: OPERATOR_KEY,
    allowedOrigins: ALLOWED_ORIGINS,
    sites: SITES,
    countedAs: null,
  });
  for (const line of banner) console.log(line);
  console.log('Ctrl-C stops it; the timers it holds pass to another host.');
  stopOnSignal(() => host.stop());
}

runMain(main);
