import type { Server } from 'node:http';
import type Account from '@vercel/cosmosdb-server/lib/account';
import { checkStandIn } from '../stand-ins';

// The server keeps its Account in a closure, but reads the class off the account module's exports when it listens,
// so a subclass put there records it. Saving needs the account itself, since a REST copy could not keep `_ts`.

type AccountClass = typeof Account;

/**
 * Call before the server listens.
 * The class is swapped only while its 'listening' listeners run, so no other server's account is recorded.
 */
export function onAccount(server: Server, use: (account: Account) => void): void {
  checkStandIn('@vercel/cosmosdb-server', 'cosmos/account.ts', require.resolve);
  // The exports object itself, since only a change to it is seen by the server's index.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require('@vercel/cosmosdb-server/lib/account') as { default: AccountClass };
  let made: Account | undefined;
  let base: AccountClass | undefined;
  server.prependOnceListener('listening', () => {
    const Base = (base = exported.default);
    const record = (account: Account) => (made = account);
    exported.default = class RecordedAccount extends Base {
      constructor(host: string, port: number) {
        super(host, port);
        record(this);
      }
    };
  });
  // The server's own 'listening' listener makes the account; this one runs after it.
  server.once('listening', () => {
    if (base !== undefined) exported.default = base;
    if (made === undefined) throw new Error('the local Cosmos server made no account');
    use(made);
  });
}
