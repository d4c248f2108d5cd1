import { randomUUID } from 'node:crypto';

import { readFileSync } from 'node:fs';

import { join } from 'node:path';

import type { Container } from '@azure/cosmos';

import { beforeAll, describe, expect, it } from 'vitest';

import { cosmosStore } from '../../adapters/cosmos/store';

import { addDays } from '../../shared/core/days';

import { migrationStatus } from '../../shared/core/store/migrations';
import { OLD_DAYS_MIGRATION } from '../../shared/core/store/old-days';
import { runMigrations } from '../../shared/fold/migrations/runner';

import { containerOf } from '../support/cosmos';

import { dyingOldDays } from '../support/dying';

import { testEnv } from '../support/env';

// The golden store's first two days (kept before the day's secrets) on the local Cosmos server: the migration that makes
// their tokens again, killed after each of its writes and run again, leaves what a clean run leaves.

const GOLDEN = JSON.parse(readFileSync(join(__dirname, '..', 'golden', 'store.json'), 'utf8')) as {
  documents: Array<{ id: string; pk: string; kind: string }>;
};
const DAYS = ['2026-10-20', '2026-10-21'];
const KEPT = GOLDEN.documents.filter(
  (doc) => (DAYS.includes(doc.pk) && (doc.kind === 'visitor-day' || doc.kind === 'fact')) || doc.pk === 'visitors',
);
const LATER = `${addDays(DAYS[1]!, 48)}T10:00:00.000Z`;

let container: Container;

beforeAll(async () => {
  // A database of this test's own on the shared local Cosmos server; each case a site of its own.
  container = await containerOf(testEnv({ COSMOS_DATABASE: `old-days-${randomUUID().slice(0, 12)}` }));
});

async function seeded(site: string) {
  const store = cosmosStore(container, { settleSeconds: 1, scope: { name: site, prefix: `${site}|` } });
  for (const doc of KEPT) expect(await store.documents.create(doc)).toBe('created');
  return store;
}

const run = { now: new Date(LATER), limit: 4, more: () => Promise.resolve(true) };

/** The days' documents and the secrets, without the store's own fields. */
async function kept(store: ReturnType<typeof cosmosStore>) {
  const docs = await Promise.all(
    [...DAYS, 'secrets'].map((pk) =>
      store.documents.query<{ id: string }>('SELECT * FROM c WHERE c.pk = @pk', [{ name: '@pk', value: store.documents.key(pk) }], pk),
    ),
  );
  return docs
    .flat()
    .map((doc) => JSON.stringify(doc))
    .sort();
}

describe('the migration of days kept before the day secrets, on the local Cosmos server', () => {
  it('leaves what a clean run leaves when it dies after any one of its writes and runs again', async () => {
    const clean = await seeded('clean');
    const cleanRun = dyingOldDays(clean, LATER);
    expect(await runMigrations(cleanRun.progress, [cleanRun.migration], run)).toBe(true);
    const expected = await kept(clean);
    expect(expected.some((doc) => doc.includes('"kind":"visitor-day"') && doc.includes('"rekeyed":true'))).toBe(true);
    expect(expected.filter((doc) => doc.includes('"kind":"fact"') || doc.includes('"kind":"rekey-secret"'))).toEqual([]);
    for (let dieAfter = 1; dieAfter <= cleanRun.writes(); dieAfter += 1) {
      const store = await seeded(`died-${dieAfter}`);
      const killed = dyingOldDays(store, LATER, dieAfter);
      await expect(runMigrations(killed.progress, [killed.migration], run)).rejects.toThrow(`died after write ${dieAfter}`);
      const again = dyingOldDays(store, LATER);
      expect(await runMigrations(again.progress, [again.migration], run)).toBe(true);
      expect(await kept(store), `died after write ${dieAfter}`).toEqual(expected);
      expect(await migrationStatus(store.migrations, OLD_DAYS_MIGRATION)).toEqual({ done: true, from: LATER.slice(0, 10) });
    }
  });
});
