import { startCosmos } from '../../host/local/services';
import { cosmosCall, meteringProxy } from './meters';

/**
 * The local Cosmos server and its metering proxy in a process of their own (run by the cost bench), so the store's
 * work does not take the host's event loop: it prints `ready <server port> <proxy port>` and answers each `take`
 * message with the calls metered since the last.
 */
async function main() {
  const cosmos = await startCosmos();
  const proxy = await meteringProxy(new URL(cosmos.endpoint), cosmosCall);
  process.on('message', (message) => {
    if (message === 'take') process.send?.({ calls: proxy.take() });
  });
  process.on('disconnect', () => process.exit(0));
  console.log(`ready ${cosmos.port} ${proxy.port}`);
}

void main();
