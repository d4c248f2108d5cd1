import type { Server } from 'node:http';
import type Account from '@vercel/cosmosdb-server/lib/account';
import { checkStandIn } from './stand-ins';

// `@vercel/cosmosdb-server` makes its Account (every database, collection and document) when its server starts
// listening and keeps it in a closure no caller can reach. Its index module reads the Account class off the account
// module's exports at that moment (`new account_1.default(host, port)`), so a subclass put there records each account
// made. Saving and loading the local store needs the account itself: a copy read over the REST API could not be written
// back with the `_ts`, `_etag` and `_rid` it had, and the fold reads writes by their `_ts`.

type AccountClass = typeof Account;

/**
 * Calls `use` with the server's account as soon as it is made, when the server starts listening and before it serves
 * any request. Call it on a server from `createHttpServer()` before it listens. The account module's class is swapped
 * for a recording one only while this server's 'listening' listeners run (the server's own makes the account then,
 * synchronously), so nothing is kept between servers and no other server's account is ever recorded here.
 */
export function onAccount(server: Server, use: (account: Account) => void): void {
  checkStandIn('@vercel/cosmosdb-server', 'cosmos-account.ts', require.resolve);
  // The module's exports object itself, not an import binding: only a change to it is seen by the server's index.
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
  // The server's own 'listening' listener, added when it was created, makes the account; this one runs after it.
  server.once('listening', () => {
    if (base !== undefined) exported.default = base;
    if (made === undefined) throw new Error('the local Cosmos server made no account');
    use(made);
  });
}
