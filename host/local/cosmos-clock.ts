import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type Account from '@vercel/cosmosdb-server/lib/account';
import Documents from '@vercel/cosmosdb-server/lib/account/documents';
import type ItemObject from '@vercel/cosmosdb-server/lib/account/item-object';
import { onAccount } from './cosmos-account';
import { installOnce } from './stand-ins';

// `@vercel/cosmosdb-server` stamps each document it creates or replaces with `_ts`, whole seconds of its process's
// `Date.now()`, and the fold reads facts up to that clock less FOLD_SETTLE_SECONDS. A test that waits for the fold to
// reach its writes would wait that margin and a second on every fold. A server started with a movable clock stamps
// `_ts` from a clock the tests move forward instead (`POST /_local/clock`): the same order of writes, the same gaps
// between marks, and no waiting. It never runs back: a mark the fold has moved past stays behind every later write.
// `npm start` and the benches never start one; the app's own code (adapters/cosmos/folding.ts) is left as Azure needs it.

/** The route a movable clock answers on its server, before the server's own routes. */
export const CLOCK_ROUTE = '/_local/clock';

/** The local Cosmos server's clock for `_ts`: the machine's, moved forward by however much the tests asked. */
export class MovableClock {
  private aheadMs = 0;

  constructor(private readonly machine: () => number = Date.now) {}

  /** The clock now, in the whole seconds `_ts` counts. */
  seconds(): number {
    return Math.floor((this.machine() + this.aheadMs) / 1000);
  }

  /** Moves the clock `seconds` forward (never back) and answers where it stands. */
  advance(seconds: number): number {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`a store clock moves forward only: ${seconds} seconds`);
    this.aheadMs += Math.ceil(seconds * 1000);
    return this.seconds();
  }

  /** Moves the clock forward to `seconds` if it stands before it: a server loaded from disk stamps after what it loaded. */
  notBefore(seconds: number): void {
    const behind = seconds - this.seconds();
    if (behind > 0) this.advance(behind);
  }
}

/** The clock of the server whose request is being served: writes outside a request (a load from disk) keep their `_ts`. */
const serving = new AsyncLocalStorage<MovableClock>();

function installStamp(): void {
  installOnce('cosmos-clock.ts', [['@vercel/cosmosdb-server', require.resolve]], () => {
    // Every document a create, a replace or an upsert writes goes through `_set`, just after `_ts` was stamped.
    const proto = Documents.prototype as unknown as { _set(data: ItemObject): ItemObject };
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const set = proto._set;
    proto._set = function stampedSet(this: Documents, data: ItemObject) {
      const clock = serving.getStore();
      if (clock !== undefined) data._ts = clock.seconds();
      return set.call(this, data);
    };
  });
}

/** The latest `_ts` of any document the account holds (0 when it holds none). */
function latestStamp(account: Account): number {
  let latest = 0;
  for (const database of account.databases._data.values())
    for (const collection of database.collections._data.values())
      for (const doc of collection.documents._data.values()) latest = Math.max(latest, doc.read()?._ts ?? 0);
  return latest;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const answer = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/**
 * Gives a `@vercel/cosmosdb-server` server the clock `clock` for `_ts`, and a route to move it:
 * `POST /_local/clock {"advanceSeconds": n}` moves it n seconds forward and answers `{"now": <its seconds>}`, so a test
 * in another process (the tests' server runs in vitest's global setup) can move it. Call it on a server from
 * `createHttpServer()` before it listens, after any other wrapper of its requests; a server loaded from disk starts no
 * earlier than the latest `_ts` it loaded.
 */
export function withMovableClock<S extends Server>(server: S, clock: MovableClock): S {
  installStamp();
  onAccount(server, (account) => clock.notBefore(latestStamp(account)));
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === CLOCK_ROUTE && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          const { advanceSeconds } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { advanceSeconds?: unknown };
          if (typeof advanceSeconds !== 'number') return answer(res, 400, { message: 'advanceSeconds: a number of seconds, 0 or more' });
          answer(res, 200, { now: clock.advance(advanceSeconds) });
        } catch (error) {
          answer(res, 400, { message: error instanceof Error ? error.message : String(error) });
        }
      });
      return;
    }
    serving.run(clock, () => {
      for (const listener of listeners) listener.call(server, req, res);
    });
  });
  return server;
}
