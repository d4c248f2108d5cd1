import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type Account from '@vercel/cosmosdb-server/lib/account';
import Documents from '@vercel/cosmosdb-server/lib/account/documents';
import type ItemObject from '@vercel/cosmosdb-server/lib/account/item-object';
import { onAccount } from './account';
import { installOnce } from '../stand-ins';

// The server stamps `_ts` from `Date.now()`, so a test waiting for the fold would wait the settle margin every time.
// A movable clock lets tests move it forward instead (`POST /_local/clock`), never back; `npm start` and the benches
// never use it, and adapters/cosmos/folding.ts is left as Azure needs it.

export const CLOCK_ROUTE = '/_local/clock';

/** The machine's clock, moved forward by however much the tests asked. */
export class MovableClock {
  private aheadMs = 0;

  constructor(private readonly machine: () => number = Date.now) {}

  /** Whole seconds, as `_ts` counts. */
  seconds(): number {
    return Math.floor((this.machine() + this.aheadMs) / 1000);
  }

  /** Never back. */
  advance(seconds: number): number {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`a store clock moves forward only: ${seconds} seconds`);
    this.aheadMs += Math.ceil(seconds * 1000);
    return this.seconds();
  }

  /** A server loaded from disk stamps after what it loaded. */
  notBefore(seconds: number): void {
    const behind = seconds - this.seconds();
    if (behind > 0) this.advance(behind);
  }
}

/** Writes outside a request, such as a load from disk, keep their `_ts`. */
const serving = new AsyncLocalStorage<MovableClock>();

function installStamp(): void {
  installOnce('cosmos/clock.ts', [['@vercel/cosmosdb-server', require.resolve]], () => {
    // Every create, replace or upsert goes through `_set`, just after `_ts` was stamped.
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

/** 0 when it holds none. */
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
 * `POST /_local/clock {"advanceSeconds": n}` moves it, so a test in another process can; the tests' server runs in vitest's global setup.
 * Call before the server listens; a server loaded from disk starts no earlier than the latest `_ts` it loaded.
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
