import { startCosmos } from '../host/local/services';
import { startProxy } from '../test/support/proxy';
import { storeCall } from './store-calls';

/** The local Cosmos server in a process of its own; `--metered`: behind a proxy whose calls each `take` message answers. */
async function main() {
  const cosmos = await startCosmos();
  const metered = process.argv.includes('--metered') ? await startProxy(new URL(cosmos.endpoint), storeCall) : null;
  process.on('message', (message) => {
    if (message === 'take') process.send?.({ calls: metered?.take() ?? [] });
  });
  const stop = () => void cosmos.stop().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  process.stdout.write(`ready ${cosmos.endpoint} ${metered?.endpoint ?? '-'}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
