import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { COSMOS_EMULATOR_KEY } from '../../local/services';

/** Settings for a test: the shared local services, a queue and a database of the test's own, test keys. */
export function testEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const stack = inject('stack');
  const unique = randomUUID().replace(/-/g, '').slice(0, 12);
  return {
    AzureWebJobsStorage: stack.queueConnectionString,
    HASH_KEY: 'test-hash-key-0123456789abcdef',
    INGEST_KEY: 'test-ingest-key-0123456789',
    OPERATOR_KEY: 'test-operator-key-0123456789',
    ALLOWED_ORIGINS: 'https://site.example',
    TRUSTED_PROXY_HOPS: '0',
    SELF_NETWORKS: '10.20.0.0/16',
    SELF_AGENT_TAG: 'headcount-self',
    HITS_QUEUE: `hits-${unique}`,
    COSMOS_ENDPOINT: stack.cosmosEndpoint,
    COSMOS_KEY: COSMOS_EMULATOR_KEY,
    COSMOS_DATABASE: `db-${unique}`,
    // The local server commits each write at once and alone, so a second behind its clock is settled.
    FOLD_SETTLE_SECONDS: '1',
    // Tests lower the person id's cost; production's is 12.
    PERSON_HASH_COST: '1',
    // Each test's mail in a folder of its own, never the working tree's.
    EMAIL_OUTBOX: join(tmpdir(), `headcount-outbox-${unique}`),
    ...overrides,
  };
}
