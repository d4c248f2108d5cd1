import { randomUUID } from 'node:crypto';
import { COSMOS_EMULATOR_KEY } from '../local/services';
import { boundedMap } from '../shared/core/bounded-map';
import type { Logger } from '../shared/core/ports/logger';
import type { SeenRequest } from '../shared/ingest/classify';

export const KEYS = {
  HASH_KEY: 'bench-hash-key-0123456789abcdef',
  INGEST_KEY: 'bench-ingest-key-0123456789',
  OPERATOR_KEY: 'bench-operator-key-0123456789',
};

/** A bench host's settings: its queue and database named `name` and a suffix, so runs never share them; `more` overrides. */
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

/** A day's secret as ingest would have read it from the store. */
export const DAY_SECRET = 'bench-day-secret-0123456789abcdef';

/** A site sending beacons: its origin allowed, one proxy (Azure's front end) before the host. */
export const BEACON_SITE = { ALLOWED_ORIGINS: 'https://site.example', TRUSTED_PROXY_HOPS: '1' };

/** A page load on the site as the ingest path sees it. */
export const seenRequest = (at: string, address: string, userAgent: string, path: string, subject: string | null = null): SeenRequest => ({
  at: new Date(at),
  address,
  userAgent,
  path,
  referrer: null,
  served_by: 'site',
  pageLoad: true,
  subject,
  operator: false,
});

/** A bench site's identity rules: no network of its own, `more` added. */
export const identityRules = <T>(more: T) => ({ hashKey: KEYS.HASH_KEY, selfNetworks: [], selfAgentTag: 'headcount-self', ...more });

export const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function postHits(url: string, bodies: readonly string[], lanes = 8, path = '/api/hits'): Promise<void> {
  await boundedMap(bodies, lanes, async (body) => {
    const headers = { 'content-type': 'application/json', 'x-ingest-key': KEYS.INGEST_KEY };
    const answer = await fetch(`${url}${path}`, { method: 'POST', headers, body });
    if (answer.status !== 202) throw new Error(`POST ${path} answered ${answer.status}: ${await answer.text()}`);
    await answer.arrayBuffer();
  });
}
