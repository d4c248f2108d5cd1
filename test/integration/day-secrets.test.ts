import { utcDays } from '../support/hit-days';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Store } from '../../shared/core/store';
import { daySecretId, IMPORT_SECRET_TTL, importSecretId, SECRETS_PK } from '../../shared/core/store/day-secrets';
import { daySecretKeeper, forgetDaySecrets, forgetImportSecrets, secretEndsAt } from '../../shared/ingest/day-secrets';
import { freshCosmos } from './keep-helpers';

// A day's secret is one for every instance (kept in the store, made on first use with create-409-then-read), held in
// memory for its day, and deleted by the timer once the day can receive no more hits: on the memory store and on the
// local Cosmos server alike.

const SUBJECTS: Array<{ name: string; make(): Promise<Store> }> = [
  { name: 'the memory store', make: async () => memoryStore() },
  { name: 'the Cosmos DB store', make: async () => (await freshCosmos()).store },
];

const DAY = '2026-10-23';
const LATE_DAYS = 7;
/** D ends last at UTC−12, noon UTC of the next day; seven more days and no hit of D can come. */
const ENDS = '2026-10-31T12:00:00.000Z';

const keeperOn = (store: Store, clock = fixedClock(`${DAY}T10:00:00Z`)) =>
  daySecretKeeper({ secrets: store.secrets, clock, lateDays: LATE_DAYS, dayOf: utcDays });

describe.each(SUBJECTS)("the day's secret on $name", ({ make }) => {
  it('ends when the day has ended at UTC−12 and HIT_MAX_AGE_DAYS more have passed', () => {
    expect(new Date(secretEndsAt(DAY, LATE_DAYS)).toISOString()).toBe(ENDS);
    expect(new Date(secretEndsAt(DAY, 1)).toISOString()).toBe('2026-10-25T12:00:00.000Z');
  });

  it('is one for every instance, however many make it at once, and random: 32 bytes, another each day', async () => {
    const store = await make();
    const instances = Array.from({ length: 6 }, () => keeperOn(store));
    const secrets = await Promise.all(instances.map((keeper) => keeper.secretOf(DAY)));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    const other = await instances[0]!.secretOf('2026-10-24');
    expect(other).toMatch(/^[0-9a-f]{64}$/);
    expect(other).not.toBe(secrets[0]);
    expect((await store.secrets.days()).sort()).toEqual([DAY, '2026-10-24']);
  });

  it('is read from the store once a process, then held for its day', async () => {
    const store = await make();
    const keeper = keeperOn(store);
    const first = await keeper.secretOf(DAY);
    const calls = store.stats().reads + store.stats().writes;
    for (let i = 0; i < 20; i += 1) expect(await keeper.secretOf(DAY)).toBe(first);
    expect(store.stats().reads + store.stats().writes).toBe(calls);
  });

  it('carries a Cosmos DB time-to-live a day past its end, as a backstop to the timer', async () => {
    const store = await make();
    await keeperOn(store).secretOf(DAY);
    const doc = await store.secrets.read(daySecretId(DAY));
    expect(doc).toMatchObject({ pk: SECRETS_PK, kind: 'day-secret', day: DAY });
    expect(doc?.kind === 'day-secret' && doc.ttl).toBe((Date.parse(ENDS) - Date.parse(`${DAY}T10:00:00Z`)) / 1000 + 86_400);
  });

  it('is deleted by the timer at its end and not before, and then no instance makes it again', async () => {
    const store = await make();
    const clock = fixedClock(`${DAY}T10:00:00Z`);
    const keeper = keeperOn(store, clock);
    await keeper.secretOf(DAY);
    await keeper.secretOf('2026-10-24');
    clock.set(new Date(Date.parse(ENDS) - 1));
    expect(await forgetDaySecrets({ secrets: store.secrets, clock, lateDays: LATE_DAYS })).toEqual([]);
    expect(await keeper.secretOf(DAY)).toMatch(/^[0-9a-f]{64}$/);
    clock.set(ENDS);
    expect(await forgetDaySecrets({ secrets: store.secrets, clock, lateDays: LATE_DAYS })).toEqual([DAY]);
    expect(await store.secrets.read(daySecretId(DAY))).toBeNull();
    expect(await store.secrets.days()).toEqual(['2026-10-24']);
    // Neither the instance that held it nor a new one makes it again: a hit of that day is too old.
    expect(await keeper.secretOf(DAY)).toBeNull();
    expect(await keeperOn(store, clock).secretOf(DAY)).toBeNull();
    expect(await store.secrets.read(daySecretId(DAY))).toBeNull();
    // A second run finds nothing more to delete.
    expect(await forgetDaySecrets({ secrets: store.secrets, clock, lateDays: LATE_DAYS })).toEqual([]);
  });

  it('gives an import of a day whose secret is gone a secret of that day, one for every instance, another each day', async () => {
    const store = await make();
    const clock = fixedClock(`${DAY}T10:00:00Z`);
    const made = await Promise.all(Array.from({ length: 4 }, () => keeperOn(store, clock).importedSecretOf('2020-01-01')));
    expect(new Set(made).size).toBe(1);
    expect(made[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await keeperOn(store, clock).importedSecretOf('2020-01-02')).not.toBe(made[0]);
    expect(await store.secrets.read(importSecretId('2020-01-01'))).toMatchObject({
      ttl: IMPORT_SECRET_TTL,
      used_at: `${DAY}T10:00:00.000Z`,
    });
  });

  it('keeps an import secret while imports use it, renewed at most hourly, and the timer deletes it a day after its last use', async () => {
    const store = await make();
    const clock = fixedClock(`${DAY}T10:00:00Z`);
    const keeper = keeperOn(store, clock);
    const first = await keeper.importedSecretOf('2020-01-01');
    // An import that goes on for a day and a half: one secret, so a person's imported day stays one visit.
    for (const at of ['T10:30', 'T16:00', 'T23:00']) {
      clock.set(`${DAY}${at}:00Z`);
      expect(await keeper.importedSecretOf('2020-01-01')).toBe(first);
    }
    clock.set('2026-10-24T20:00:00Z');
    expect(await keeperOn(store, clock).importedSecretOf('2020-01-01')).toBe(first);
    expect(await forgetImportSecrets({ secrets: store.secrets, clock })).toBe(0);
    expect((await store.secrets.read(importSecretId('2020-01-01')))?.kind).toBe('import-secret');
    // Unused for a day since its last renewal (20:00), the timer deletes it.
    clock.set('2026-10-25T19:59:59Z');
    expect(await forgetImportSecrets({ secrets: store.secrets, clock })).toBe(0);
    clock.set('2026-10-25T20:00:00Z');
    expect(await forgetImportSecrets({ secrets: store.secrets, clock })).toBe(1);
    expect(await store.secrets.read(importSecretId('2020-01-01'))).toBeNull();
    expect(await store.secrets.imports()).toEqual([]);
    // Neither the instance that held it nor a new one gives it again: a later import has a secret of its own.
    const later = await keeper.importedSecretOf('2020-01-01');
    expect(later).not.toBe(first);
    expect(await keeperOn(store, clock).importedSecretOf('2020-01-01')).toBe(later);
  });

  it('deletes the one import secret kept before import secrets were renewed at its first run', async () => {
    const store = await make();
    const clock = fixedClock(`${DAY}T10:00:00Z`);
    await store.secrets.create({ id: 'secret:imports', pk: SECRETS_PK, kind: 'import-secret', secret: 'f'.repeat(64) } as never);
    await keeperOn(store, clock).importedSecretOf('2020-01-01');
    expect(await forgetImportSecrets({ secrets: store.secrets, clock })).toBe(1);
    expect(await store.secrets.read('secret:imports')).toBeNull();
    expect((await store.secrets.imports()).map((kept) => kept.id)).toEqual([importSecretId('2020-01-01')]);
  });
});
