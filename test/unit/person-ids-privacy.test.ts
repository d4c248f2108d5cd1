import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { derivePersonId } from '../../shared/core/identity/person-id';
import { personHash } from '../../shared/core/identity/tokens';
import type { Goal } from '../../shared/core/events/events';
import type { QueuedHit } from '../../shared/core/message';
import { VISITOR_COOKIES_PK, visitorCookieId } from '../../shared/core/store/subjects';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { fold } from '../../shared/fold/fold';
import { personIdsMigration } from '../../shared/fold/migrations/person-ids';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { keepHits, keepMemory } from '../../shared/keep/keep';
import { personSwitch, type PersonSwitch } from '../../shared/keep/switched';
import { queuedHit } from '../support/counting';
import { addressSearch } from '../support/privacy';

const KEY = 'test-hash-key-0123456789abcdef';
const FAMILY = 'Firefox on Linux';
const GOALS: Goal[] = [{ name: 'pricing', events: [], paths: ['/pricing'] }];
const derive = (old: string) => derivePersonId(old, 1);
const person = (host: number) => personHash(KEY, `203.0.113.${host}`, FAMILY);
const hit = (day: string, host: number): QueuedHit => ({
  ...queuedHit(`${day}T10:00:00.000Z`, { path: '/pricing', subject: 'poster' }),
  person: person(host),
});

/** A store kept and folded before and after the switch of person ids, its migration run to the end between. */
async function switchedStore() {
  const store = memoryStore();
  const at = { now: new Date('2026-12-01T12:00:00.000Z') };
  const clock = { now: () => at.now };
  const memory = keepMemory();
  const switched: { sw?: PersonSwitch } = {};
  const keep = async (hits: QueuedHit[]) => {
    const outcome = await keepHits(
      { v: 1, id: crypto.randomUUID(), hits },
      { store, clock, ...memory, ...(switched.sw ? { personSwitch: switched.sw } : {}) },
    );
    if (!outcome.ok) throw new Error(outcome.reason);
  };
  const folded = async () => {
    const sw = switched.sw;
    const persons = sw === undefined ? {} : { persons: { begun: () => sw.begun(), derive } };
    const outcome = await fold({
      store,
      clock,
      rules: scanRules(10, 60),
      lateDays: 7,
      goals: GOALS,
      budget: TIMER_FOLD_BUDGET,
      ...persons,
    });
    if (!outcome.ok) throw new Error(outcome.reason);
  };
  await keep([1, 2, 3].map((host) => hit('2026-12-01', host)));
  await store.subjects.cookies.create({
    id: visitorCookieId('1'.repeat(32)),
    pk: VISITOR_COOKIES_PK,
    kind: 'visitor-cookie',
    identity: person(1),
    ttl: 100,
  });
  await folded();
  // Kept before the begin, folded after it.
  at.now = new Date('2026-12-02T12:00:00.000Z');
  await keep([hit('2026-12-02', 3)]);
  switched.sw = personSwitch(store.migrations, store.personMoves.at, derive);
  const migration = personIdsMigration(store.personMoves, derive, clock, {
    store: store.goals,
    names: () => ['pricing'],
    subjects: store.subjects,
  });
  expect(await runMigrations(store.migrations, [migration], { now: at.now, limit: 50, more: () => Promise.resolve(true) })).toBe(true);
  await keep([2, 4].map((host) => hit('2026-12-02', host)));
  await keep([{ ...hit('2026-12-02', 5), person: await derive(person(5)), person_derived: true }]);
  await folded();
  return store;
}

const dumpOf = (docs: Array<Record<string, unknown>>) => JSON.stringify(docs);
const search = (dump: string) =>
  addressSearch(dump, { hashKey: KEY, families: [FAMILY], networks: ['203.0.113.x'], secrets: new Map() }).filter(
    (found) => found.when === 'person',
  );

describe('the person ids once switched: an address search with HASH_KEY', () => {
  it('recovers no one from the records, goals, subjects and cookie links: they hold derived ids only', async () => {
    const docs = (await switchedStore()).documents.query<Record<string, unknown>>(() => true);
    const lasting = docs.filter((doc) => doc.kind !== 'fact' && doc.kind !== 'person-moved');
    expect(lasting.map((doc) => doc.kind)).toEqual(
      expect.arrayContaining(['visitor-record', 'goal-person', 'subject-visitor', 'visitor-cookie']),
    );
    expect(search(dumpOf(lasting))).toEqual([]);
    // Until they expire, the facts kept across the switch (`was`) and the moves' markers hold the old ids: the search finds them there.
    const expiring = docs.filter((doc) => doc.kind === 'fact' || doc.kind === 'person-moved');
    expect(new Set(search(dumpOf(expiring)).map((found) => found.address))).toEqual(
      new Set([1, 2, 3, 4].map((host) => `203.0.113.${host}`)),
    );
    expect(expiring.every((doc) => typeof doc.ttl === 'number' && doc.ttl > 0)).toBe(true);
  });
});
