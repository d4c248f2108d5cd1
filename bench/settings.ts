import { randomUUID } from 'node:crypto';
import { COSMOS_EMULATOR_KEY } from '../host/local/services';
import type { Logger } from '../shared/core/ports/logger';

/** The keys every bench's host is given. */
export const KEYS = {
  HASH_KEY: 'bench-hash-key-0123456789abcdef',
  INGEST_KEY: 'bench-ingest-key-0123456789',
  OPERATOR_KEY: 'bench-operator-key-0123456789',
};

/**
 * The settings of a bench's host: the bench's keys, its queue at `queue` (a connection string) and its database on the
 * Cosmos server at `cosmos`, both named `name` and a suffix of their own (so runs never share them), the fold settling
 * 1 s behind the store; `more` adds to them or overrides them.
 */
export function hostSettings(queue: string, cosmos: string, name: string, more: Record<string, string> = {}) {
  const own = `${name}-${randomUUID().slice(0, 8)}`;
  return {
    ...KEYS,
    AzureWebJobsStorage: queue,
    HITS_QUEUE: own,
    COSMOS_ENDPOINT: cosmos,
    COSMOS_KEY: COSMOS_EMULATOR_KEY,
    COSMOS_DATABASE: own,
    FOLD_SETTLE_SECONDS: '1',
    ...more,
  };
}

/** What a site sending beacons asks of the host: its origin allowed, one proxy (Azure's front end) before it. */
export const BEACON_SITE = { ALLOWED_ORIGINS: 'https://site.example', TRUSTED_PROXY_HOPS: '1' };

/** A logger that writes nothing: the benches print their own lines. */
export const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
