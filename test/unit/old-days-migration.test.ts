import { readFileSync } from 'node:fs';

import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { MemoryDocuments } from '../../adapters/memory/documents';

import { memoryStore } from '../../adapters/memory/store';

import { addDays } from '../../shared/core/days';

import { isLoopbackNetwork } from '../../shared/core/identity/network';

import { rootFromEnvironment } from '../../host/composition';

import { fixedClock } from '../../shared/core/ports/clock';

import type { VisitorDay } from '../../shared/core/store';
import { REKEY_SECRET_TTL } from '../../shared/core/store/day-secrets';
import { migrationStatus } from '../../shared/core/store/migrations';
import { IMPORTS_PK, landedId, type LandedImport } from '../../shared/core/store/imports';

import { OLD_DAYS_MIGRATION } from '../../shared/core/store/old-days';
import { runMigrations } from '../../shared/fold/migrations/runner';

import { visitorDayKey } from '../../shared/read/counting/visits';

import { testSecret } from '../support/day-secrets';

import { dyingOldDays } from '../support/dying';

// The golden store was kept before the day's secrets: its visitor-days hold networks beside tokens of HASH_KEY, and its
// facts hold both beside person hashes.
const GOLDEN = JSON.parse(readFileSync(join(__dirname, '..', 'golden', 'store.json'), 'utf8')) as {
  read_at: string;
  documents: Array<{ id: string; pk: string; kind: string }>;
};
const DAYS = ['2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23'];
/** Past the fold's reach of every golden day. */
const LATER = `${addDays('2026-10-23', 48)}T10:00:00.000Z`;

function golden(): MemoryDocuments {
  const documents = new MemoryDocuments();
  for (const doc of GOLDEN.documents) documents.create(doc);
  return documents;
}

const visitorDays = (documents: MemoryDocuments) => documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day');
const ofKind = (documents: MemoryDocuments, kind: string) => documents.query<{ kind: string }>((doc) => doc.kind === kind);

const run = (at: string) => ({ now: new Date(at), limit: 4, more: () => Promise.resolve(true) });

/** Each day's documents as a read groups them, by token, with what changes left out. */
function grouped(docs: readonly VisitorDay[]) {
  const groups = new Map<string, string[]>();
  for (const doc of docs) {
    const { id: _id, token: _token, network: _network, rekeyed: _rekeyed, visit: _visit, ...kept } = doc;
    const key = visitorDayKey(doc);
    groups.set(key, [...(groups.get(key) ?? []), JSON.stringify(kept)].sort());
  }
  return [...groups.values()].map((group) => group.join('\n')).sort();
}

/** Everything but the migration's own progress, whose slices depend on where a run died. */
const dumpOf = (documents: MemoryDocuments) =>
  documents
    .query<{ id: string; pk: string; kind: string }>((doc) => doc.kind !== 'migration')
    .map((doc) => JSON.stringify(doc))
    .sort();

describe('the migration of days kept before the day secrets, on the golden store', () => {
  it('makes every token again, drops every network but loopback and every fact, and keeps what reads group', async () => {
    const documents = golden();
    const store = memoryStore(documents);
    const before = visitorDays(documents);
    expect(before.some((doc) => doc.network === '203.0.113.x')).toBe(true);
    const visitsBefore = await Promise.all(DAYS.map((day) => store.activity.visitsOn(day)));
    const { progress, migration } = dyingOldDays(store, LATER);
    expect(await runMigrations(progress, [migration], run(LATER))).toBe(true);
    const after = visitorDays(documents);
    expect(after).toHaveLength(before.length);
    expect(after.every((doc) => doc.rekeyed === true)).toBe(true);
    const oldTokens = new Set(before.map((doc) => doc.token));
    expect(after.filter((doc) => oldTokens.has(doc.token))).toEqual([]);
    expect(new Set(after.map((doc) => (isLoopbackNetwork(doc.network) ? 'loopback' : doc.network)))).toEqual(new Set(['x', 'loopback']));
    expect(grouped(after)).toEqual(grouped(before));
    expect(after.filter((doc) => doc.visit).length).toBe(before.filter((doc) => doc.visit).length);
    expect(await Promise.all(DAYS.map((day) => store.activity.visitsOn(day)))).toEqual(visitsBefore);
    expect(ofKind(documents, 'fact')).toEqual([]);
    // Each day's secret went with its day.
    expect(ofKind(documents, 'rekey-secret')).toEqual([]);
    expect(await migrationStatus(store.migrations, OLD_DAYS_MIGRATION)).toEqual({ done: true, from: LATER.slice(0, 10) });
  });

  it("holds a day's secret only while the day is made again, with a week's time-to-live behind it", async () => {
    const documents = golden();
    const store = memoryStore(documents);
    const { progress, migration } = dyingOldDays(store, LATER);
    let slices = 1;
    expect(await runMigrations(progress, [migration], { ...run(LATER), more: () => Promise.resolve(slices-- > 0) })).toBe(false);
    expect(ofKind(documents, 'rekey-secret')).toEqual([
      {
        id: 'secret:rekey:2026-10-20',
        pk: 'secrets',
        kind: 'rekey-secret',
        day: '2026-10-20',
        secret: testSecret('2026-10-20'),
        ttl: REKEY_SECRET_TTL,
      },
    ]);
  });

  it('leaves what a clean run leaves when it dies after any one of its writes and runs again', async () => {
    const clean = golden();
    const cleanRun = dyingOldDays(memoryStore(clean), LATER);
    expect(await runMigrations(cleanRun.progress, [cleanRun.migration], run(LATER))).toBe(true);
    const expected = dumpOf(clean);
    expect(cleanRun.writes()).toBeGreaterThan(60);
    for (let dieAfter = 1; dieAfter <= cleanRun.writes(); dieAfter += 1) {
      const documents = golden();
      const store = memoryStore(documents);
      const killed = dyingOldDays(store, LATER, dieAfter);
      await expect(runMigrations(killed.progress, [killed.migration], run(LATER))).rejects.toThrow(`died after write ${dieAfter}`);
      const again = dyingOldDays(store, LATER);
      expect(await runMigrations(again.progress, [again.migration], run(LATER))).toBe(true);
      expect(dumpOf(documents), `died after write ${dieAfter}`).toEqual(expected);
    }
  });

  it('waits, writing nothing, while the fold can still read a day, and those after it wait too', async () => {
    const documents = golden();
    const store = memoryStore(documents);
    const within = `${addDays('2026-10-20', 45)}T10:00:00.000Z`;
    const waiting = dyingOldDays(store, within);
    const after = { name: 'after', slice: () => Promise.reject(new Error('a migration after a waiting one ran')) };
    expect(await runMigrations(waiting.progress, [waiting.migration, after], run(within))).toBe(false);
    expect(await runMigrations(waiting.progress, [waiting.migration, after], run(within))).toBe(false);
    // The first run writes where it begins and the day it waits at; no run writes anything else.
    expect(waiting.writes()).toBe(2);
    expect(ofKind(documents, 'fact')).toHaveLength(GOLDEN.documents.filter((doc) => doc.kind === 'fact').length);
    // A day out of reach moves; the one still in reach waits.
    const next = `${addDays('2026-10-20', 47)}T10:00:00.000Z`;
    const moving = dyingOldDays(store, next);
    expect(await runMigrations(moving.progress, [moving.migration], run(next))).toBe(false);
    const rekeyedOn = (day: string) => visitorDays(documents).filter((doc) => doc.day === day && doc.rekeyed === true).length;
    expect(rekeyedOn('2026-10-20')).toBeGreaterThan(0);
    expect(visitorDays(documents).filter((doc) => doc.day === '2026-10-20' && doc.rekeyed === undefined)).toEqual([]);
    expect(rekeyedOn('2026-10-21')).toBe(0);
    const done = dyingOldDays(store, LATER);
    expect(await runMigrations(done.progress, [done.migration], run(LATER))).toBe(true);
  });

  it('waits on a day an import landed on until the fold has read its note, so no fact still to fold is removed', async () => {
    const documents = golden();
    const store = memoryStore(documents);
    const note: LandedImport = { id: landedId('m-1'), pk: IMPORTS_PK, kind: 'import-landed', message: 'm-1', days: ['2026-10-21'], ttl: 1 };
    documents.create(note);
    const waiting = dyingOldDays(store, LATER);
    expect(await runMigrations(waiting.progress, [waiting.migration], run(LATER))).toBe(false);
    expect(visitorDays(documents).filter((doc) => doc.day === '2026-10-20' && doc.rekeyed === undefined)).toEqual([]);
    expect(visitorDays(documents).filter((doc) => doc.day === '2026-10-21' && doc.rekeyed === true)).toEqual([]);
    expect(documents.query((doc: { kind: string; pk: string }) => doc.kind === 'fact', '2026-10-21').length).toBeGreaterThan(0);
    // The fold reads the note (its watermark moves past it) and folds the day; then the day is made again.
    const state = (await store.foldState.read())!;
    expect(await store.foldState.replace({ ...state.doc, imports: documents.lastMark() }, state.etag)).toBe('replaced');
    const done = dyingOldDays(store, LATER);
    expect(await runMigrations(done.progress, [done.migration], run(LATER))).toBe(true);
    expect(visitorDays(documents).filter((doc) => doc.rekeyed === undefined)).toEqual([]);
  });

  it("waits on a day with a fact past the run's settled watermark (an import's may be under way), then removes it", async () => {
    const documents = golden();
    const store = memoryStore(documents);
    const fact = GOLDEN.documents.find((doc) => doc.kind === 'fact' && doc.pk === '2026-10-20')!;
    documents.create({ ...fact, id: 'fact:late' });
    const bound = documents.lastMark() - 1;
    const waiting = dyingOldDays(store, LATER);
    expect(await runMigrations(waiting.progress, [waiting.migration], { ...run(LATER), bound })).toBe(false);
    expect(visitorDays(documents).filter((doc) => doc.day === '2026-10-20' && doc.rekeyed === undefined)).toEqual([]);
    expect(documents.read('2026-10-20', 'fact:late')).not.toBeNull();
    const done = dyingOldDays(store, LATER);
    expect(await runMigrations(done.progress, [done.migration], { ...run(LATER), bound: documents.lastMark() })).toBe(true);
    expect(ofKind(documents, 'fact')).toEqual([]);
  });

  it('is done at once on a store that keeps no day', async () => {
    const store = memoryStore();
    const { progress, migration } = dyingOldDays(store, LATER);
    expect(await runMigrations(progress, [migration], run(LATER))).toBe(true);
  });

  it('is registered for every site and for all sites, each on its own store', async () => {
    const env = {
      HASH_KEY: 'test-hash-key-0123456789abcdef',
      INGEST_KEY: 'test-ingest-key-0123456789',
      OPERATOR_KEY: 'test-operator-key-0123456789',
      AzureWebJobsStorage: 'UseDevelopmentStorage=true',
      STORE: 'memory',
      SITES: 'a.example=https://a.example|b.example=https://b.example',
    };
    const documents = golden();
    const b = memoryStore(documents);
    const root = rootFromEnvironment(env, {
      clock: fixedClock(LATER),
      siteStore: (scope) => (scope.name === 'b.example' ? b : memoryStore()),
    });
    expect([...(await root.sites.current()).roots.keys()].sort()).toEqual(['*', 'a.example', 'b.example']);
    for (const site of (await root.sites.current()).roots.values())
      expect(site.fold.migrations?.map((one) => one.name)).toContain(OLD_DAYS_MIGRATION);
    const fold = (await root.sites.current()).roots.get('b.example')!.fold;
    expect(await runMigrations(b.migrations, fold.migrations!, run(LATER))).toBe(true);
    expect(visitorDays(documents).every((doc) => doc.rekeyed === true)).toBe(true);
  });
});
