import { describe, expect, it } from 'vitest';
import { ALL_SITES_FROM_ID } from '../../shared/core/store/all-sites';
import { markAllSitesFrom } from '../../shared/fold/all-sites-from';
import { memoryStore } from '../../adapters/memory/store';
import { emptyRollup } from '../../shared/core/rollup/day-rollup';
import type { ActivityHour, Fact, Watermarked, Store, VisitorDay, VisitorRecord } from '../../shared/core/store';
import { hourId, visitorDayId } from '../../shared/core/store/activity';
import { FACT_TTL_SECONDS, factId } from '../../shared/core/store/facts';
import { emptyFoldState } from '../../shared/core/store/fold';
import {
  releaseFoldLease,
  renewFoldLease,
  takeFoldLease,
  type FoldLeaseAnswer,
  type HeldFoldLease,
} from '../../shared/core/store/fold-lease';
import { emptyVisitorsSummary } from '../../shared/core/store/summary';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { emptyVisits } from '../../shared/core/store/visits';
import { settle } from '../support/store-clock';
import { freshCosmos, SETTLE_SECONDS } from './keep-helpers';

// The store's ports (shared/core/store/*.ts) promise the same answers whatever keeps the documents: the same cases, run on
// the memory store and on the Cosmos DB store (on the tests' local Cosmos server, a database of each case's own). Each
// subject also says how its writes become settled: at once in memory; on Cosmos DB once the server's clock is past
// the settle margin, which the test moves rather than waits for.

interface Subject {
  name: string;
  /** A new, empty store, and how to make every write so far settled (at or before the next settled watermark). */
  make(): Promise<{ store: Store; settle(): Promise<void> }>;
}

const SUBJECTS: Subject[] = [
  { name: 'the memory store', make: async () => ({ store: memoryStore(), settle: async () => undefined }) },
  {
    name: 'the Cosmos DB store',
    make: async () => ({ store: (await freshCosmos()).store, settle: () => settle(SETTLE_SECONDS) }),
  },
];

const DAY = '2026-10-23';
const OTHER_DAY = '2026-10-24';
/** Past any watermark either store gives. */
const ALWAYS = Number.MAX_SAFE_INTEGER;

const fact = (day: string, message: string): Fact => ({
  id: factId(message),
  pk: day,
  kind: 'fact',
  day,
  message,
  hits: 1,
  visitor_days: [],
  hours: [],
  scans: [],
  ttl: FACT_TTL_SECONDS,
});

const record = (hash: string, over: Partial<VisitorRecord> = {}): VisitorRecord => ({
  id: hash,
  pk: VISITORS_PK,
  kind: 'visitor-record',
  first_seen: DAY,
  last_seen: DAY,
  days_seen: 1,
  recent_days: [DAY],
  who: 'people',
  counted_on: DAY,
  moved_days: [],
  counts_changed_at: `${DAY}T10:00:00.000Z`,
  ttl: -1,
  ...over,
});

const visitorDay = (day: string, store: string, token: string, visit: boolean): VisitorDay => ({
  id: visitorDayId(store, token),
  pk: day,
  kind: 'visitor-day',
  store,
  day,
  token,
  network: '203.0.113.x',
  first_seen: `${day}T10:00:00.000Z`,
  last_seen: `${day}T10:05:00.000Z`,
  requests: 2,
  bots: 0,
  self: 0,
  paths: { '/': 2 },
  sources: {},
  page_loads: 2,
  visit,
  folded_to: 0,
});

const hour = (day: string, hh: string): ActivityHour => ({
  id: hourId('site', hh),
  pk: day,
  kind: 'activity-hour',
  store: 'site',
  day,
  hour: `${day}T${hh}:00:00.000Z`,
  requests: 3,
  bots: 1,
  self: 0,
  paths: { '/': 3 },
  folded_to: 0,
});

const idsOf = (found: readonly { doc: { id: string } }[]) => found.map((one) => one.doc.id);
const sortedIds = (found: readonly { doc: { id: string } }[]) => idsOf(found).sort();

function held(answer: FoldLeaseAnswer): HeldFoldLease {
  if (!answer.held) throw new Error(`expected the lease held, got: ${answer.reason}`);
  return answer.lease;
}

describe.each(SUBJECTS.map((subject) => [subject.name, subject] as const))('the store contract, on %s', (_name, subject) => {
  it('creates a document once: a second create of its id in its partition answers exists; another partition takes the id', async () => {
    const { store } = await subject.make();
    expect(await store.records.create(record('a'.repeat(32)))).toBe('created');
    expect(await store.records.create(record('a'.repeat(32), { who: 'scanners' }))).toBe('exists');
    expect((await store.records.read('a'.repeat(32)))?.doc).toEqual(record('a'.repeat(32)));

    expect(await store.facts.create(fact(DAY, 'm1'))).toBe('created');
    expect(await store.facts.create(fact(DAY, 'm1'))).toBe('exists');
    // The same id on another day is another document: Cosmos DB keys a document by its partition and its id.
    expect(await store.facts.create(fact(OTHER_DAY, 'm1'))).toBe('created');
    expect(sortedIds(await store.facts.on(OTHER_DAY, 0, ALWAYS))).toEqual([factId('m1')]);

    // The day all sites began is marked once: a second watermark finds the first.
    await markAllSitesFrom(store, DAY);
    expect(await store.allSitesFrom.create({ id: ALL_SITES_FROM_ID, pk: VISITORS_PK, kind: 'all-sites-from', day: OTHER_DAY })).toBe(
      'exists',
    );
    expect((await store.allSitesFrom.read())?.doc.day).toBe(DAY);

    // A create that found the id taken is an answer, counted as a conflict, never as a failure.
    expect(store.stats()).toMatchObject({ conflicts: 3, failures: 0 });
  });

  it('answers null for a point read of what is not there, and the empty figures for a count never written', async () => {
    const { store } = await subject.make();
    expect(await store.records.read('b'.repeat(32))).toBeNull();
    expect(await store.foldState.read()).toBeNull();
    expect(await store.foldLease.read()).toBeNull();
    expect(await store.visitorsSummary.read()).toBeNull();
    expect(await store.visits.read()).toBeNull();
    expect(await store.rollups.read(DAY)).toBeNull();
    expect(await store.importLedger.read()).toBeNull();
    expect(await store.rollupReader.onDays([DAY, OTHER_DAY])).toEqual(new Map());
    expect(await store.visitorsSummary.peopleFrom(DAY)).toEqual({
      people_all_time: 0,
      scanners_left_out: 0,
      counted_from: null,
      people_new_by_day: {},
    });
    expect(store.stats()).toMatchObject({ failures: 0, conflicts: 0 });
  });

  it('replaces only the version read: the current one writes and gives a new version; a stale or gone one answers stale, never throws', async () => {
    const { store } = await subject.make();
    const hash = 'c'.repeat(32);
    await store.records.create(record(hash));
    const first = (await store.records.read(hash))!;
    expect(first.etag).toEqual(expect.any(String));

    const second = record(hash, { last_seen: OTHER_DAY, days_seen: 2, recent_days: [DAY, OTHER_DAY] });
    expect(await store.records.replace(second, first.etag)).toBe('replaced');
    const read = (await store.records.read(hash))!;
    // The document as written, with none of the store's own fields, and a new version.
    expect(read.doc).toEqual(second);
    expect(read.etag).not.toBe(first.etag);

    // The version read first is stale now: the write is refused and what is kept stays as it was.
    expect(await store.records.replace(record(hash, { who: 'scanners' }), first.etag)).toBe('stale');
    expect((await store.records.read(hash))?.doc).toEqual(second);
    // A document that is not there has no version to match.
    expect(await store.records.replace(record('d'.repeat(32)), read.etag)).toBe('stale');
    expect(await store.records.read('d'.repeat(32))).toBeNull();
    expect(store.stats()).toMatchObject({ conflicts: 2, failures: 0 });
  });

  it('reads a day’s facts between two settled watermarks, in its partition alone, and the first of them in the order of their watermarks', async () => {
    const { store, settle: settled } = await subject.make();
    await store.facts.create(fact(DAY, 'first'));
    await settled();
    const m1 = await store.watermarks.settled();
    await store.facts.create(fact(DAY, 'second'));
    await store.facts.create(fact(OTHER_DAY, 'elsewhere'));
    await settled();
    const m2 = await store.watermarks.settled();
    // A write after a settled watermark lands past it.
    await store.facts.create(fact(DAY, 'later'));
    expect(m2).toBeGreaterThan(m1);

    const upToM1 = await store.facts.on(DAY, 0, m1);
    expect(idsOf(upToM1)).toEqual([factId('first')]);
    expect(upToM1[0]).toEqual({ doc: fact(DAY, 'first'), etag: expect.any(String), watermark: expect.any(Number) });
    expect(upToM1[0]!.watermark).toBeLessThanOrEqual(m1);
    const betweenMarks = await store.facts.on(DAY, m1, m2);
    expect(idsOf(betweenMarks)).toEqual([factId('second')]);
    expect(betweenMarks[0]!.watermark).toBeGreaterThan(m1);
    expect(betweenMarks[0]!.watermark).toBeLessThanOrEqual(m2);
    expect(sortedIds(await store.facts.on(DAY, 0, m2))).toEqual([factId('first'), factId('second')]);
    expect(sortedIds(await store.facts.on(OTHER_DAY, 0, m2))).toEqual([factId('elsewhere')]);
    const afterM2 = await store.facts.on(DAY, m2, ALWAYS);
    expect(idsOf(afterM2)).toEqual([factId('later')]);

    // One slice of a backlog: the first n after a watermark, in the order of their watermarks.
    const all: Watermarked<Fact>[] = await store.facts.firstOn(DAY, 0, ALWAYS, 10);
    expect(idsOf(all)).toEqual([factId('first'), factId('second'), factId('later')]);
    expect(all.map((one) => one.watermark)).toEqual([...all.map((one) => one.watermark)].sort((a, b) => a - b));
    expect(idsOf(await store.facts.firstOn(DAY, 0, ALWAYS, 1))).toEqual([factId('first')]);
    expect(idsOf(await store.facts.firstOn(DAY, all[0]!.watermark, m2, 10))).toEqual([factId('second')]);
    expect(await store.facts.firstOn('2026-10-25', 0, ALWAYS, 10)).toEqual([]);
  });

  it('pages a day’s visitor-days by daily token then id, after a token, leaving out other kinds and other days', async () => {
    const { store } = await subject.make();
    const docs = [
      visitorDay(DAY, 'site', 't3', true),
      visitorDay(DAY, 'site', 't1', true),
      visitorDay(DAY, 'shop', 't1', false),
      visitorDay(DAY, 'site', 't2', false),
      visitorDay(OTHER_DAY, 'site', 't0', true),
    ];
    for (const doc of [...docs, hour(DAY, '10')]) expect(await store.activity.create(doc)).toBe('created');
    const page = async (after: string, limit: number) =>
      (await store.visitorDayPages.byToken(DAY, after, limit)).map((doc) => `${doc.token} ${doc.id}`);
    expect(await page('', 2)).toEqual([`t1 ${visitorDayId('shop', 't1')}`, `t1 ${visitorDayId('site', 't1')}`]);
    expect(await page('t1', 2)).toEqual([`t2 ${visitorDayId('site', 't2')}`, `t3 ${visitorDayId('site', 't3')}`]);
    expect(await page('t3', 2)).toEqual([]);
    // Each as it was written.
    expect(await store.visitorDayPages.byToken(DAY, 't2', 5)).toEqual([visitorDay(DAY, 'site', 't3', true)]);
  });

  it('finds the activity a day’s facts touch (every store’s visitor-days of the tokens, the hours named) and counts the day’s visits', async () => {
    const { store } = await subject.make();
    for (const doc of [
      visitorDay(DAY, 'site', 't1', true),
      visitorDay(DAY, 'shop', 't1', false),
      visitorDay(DAY, 'site', 't2', true),
      visitorDay(OTHER_DAY, 'site', 't1', true),
      hour(DAY, '10'),
      hour(DAY, '11'),
    ])
      await store.activity.create(doc);
    const touched = await store.activity.touched(DAY, ['t1'], [hourId('site', '10')]);
    expect(sortedIds(touched)).toEqual([hourId('site', '10'), visitorDayId('shop', 't1'), visitorDayId('site', 't1')].sort());
    const hourRead = touched.find((one) => one.doc.id === hourId('site', '10'))!;
    expect(hourRead.doc).toEqual(hour(DAY, '10'));
    // Each with the version a replace must name.
    const moved = { ...hour(DAY, '10'), requests: 4, folded_to: 7 };
    expect(await store.activity.replace(moved, hourRead.etag)).toBe('replaced');
    expect(await store.activity.replace(moved, hourRead.etag)).toBe('stale');
    expect(await store.activity.touched(DAY, [], [])).toEqual([]);
    expect(await store.activity.visitsOn(DAY)).toBe(2);
    expect(await store.activity.visitsOn(OTHER_DAY)).toBe(1);
    expect(await store.activity.visitsOn('2026-10-25')).toBe(0);
    expect(await store.activityReader.hoursOn([DAY])).toEqual([moved, hour(DAY, '11')]);
  });

  it('reads the records written between two settled watermarks in the order of their watermarks, and counts a day’s people and scanners', async () => {
    const { store, settle: settled } = await subject.make();
    const person = record('e'.repeat(32));
    const scanner = record('f'.repeat(32), { who: 'scanners', counted_on: null, ttl: 7_776_000 });
    await store.records.create(person);
    await settled();
    const m1 = await store.watermarks.settled();
    await store.records.create(scanner);
    await settled();
    const m2 = await store.watermarks.settled();
    const change = ({ who, first_seen, counted_on, moved_days, counts_changed_at }: VisitorRecord) => ({
      who,
      first_seen,
      counted_on,
      moved_days,
      counts_changed_at,
    });
    const changed = await store.recordCounts.changed(0, m2, Number.POSITIVE_INFINITY);
    expect(changed.map(({ watermark: _mark, ...rest }) => rest)).toEqual([change(person), change(scanner)]);
    expect(changed[0]!.watermark).toBeLessThanOrEqual(m1);
    expect(changed[1]!.watermark).toBeGreaterThan(m1);
    expect((await store.recordCounts.changed(0, m2, 1)).map(({ who }) => who)).toEqual(['people']);
    expect((await store.recordCounts.changed(m1, m2, 10)).map(({ who }) => who)).toEqual(['scanners']);
    expect(await store.recordCounts.countsOn(DAY)).toEqual({ people: 1, scanners: 1 });
    expect(await store.recordCounts.countsOn(OTHER_DAY)).toEqual({ people: 0, scanners: 0 });
  });

  it('holds the fold lease for one fold at a time: taken, refused to another, renewed with a new version, released for another', async () => {
    const { store } = await subject.make();
    const now = new Date('2026-12-01T19:00:00.000Z');
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    const a = held(await takeFoldLease(store.foldLease, 'fold-a', now, 60));
    expect(a).toMatchObject({ holder: 'fold-a', until: at(60).toISOString() });
    expect(await takeFoldLease(store.foldLease, 'fold-b', at(59), 60)).toEqual({
      held: false,
      busy: true,
      reason: `another fold holds the lease until ${a.until}`,
    });
    const renewed = held(await renewFoldLease(store.foldLease, a, at(30), 60));
    expect(renewed.etag).not.toBe(a.etag);
    expect((await store.foldLease.read())?.doc).toMatchObject({ holder: 'fold-a', until: at(90).toISOString() });
    // The version before the renewal is stale: a renewal by it answers not held.
    expect(await renewFoldLease(store.foldLease, a, at(31), 60)).toEqual({ held: false, busy: true, reason: 'the lease was taken over' });
    await releaseFoldLease(store.foldLease, renewed, at(40));
    expect(held(await takeFoldLease(store.foldLease, 'fold-b', at(40), 60)).holder).toBe('fold-b');
    // Two folds at once, ten times: exactly one holds each time.
    for (let round = 1; round <= 10; round++) {
      const current = (await store.foldLease.read())!;
      await releaseFoldLease(store.foldLease, { ...current.doc, etag: current.etag }, at(100 * round));
      const answers = await Promise.all([
        takeFoldLease(store.foldLease, `fold-c-${round}`, at(100 * round), 60),
        takeFoldLease(store.foldLease, `fold-d-${round}`, at(100 * round), 60),
      ]);
      expect(
        answers.filter((answer) => answer.held),
        `round ${round}`,
      ).toHaveLength(1);
    }
    expect(store.stats().failures).toBe(0);
  });

  it('reads and writes the summaries, the fold state and a day’s rollup conditionally, and the count reads the summary written', async () => {
    const { store } = await subject.make();
    const slots = [
      {
        name: 'summary',
        slot: store.visitorsSummary,
        empty: emptyVisitorsSummary(),
        changed: { ...emptyVisitorsSummary(), people_all_time: 3 },
      },
      { name: 'visits', slot: store.visits, empty: emptyVisits(), changed: { ...emptyVisits(), all_time: 5, by_day: { [DAY]: 5 } } },
      { name: 'fold state', slot: store.foldState, empty: emptyFoldState(), changed: { ...emptyFoldState(), days: { [DAY]: 42 } } },
    ] as const;
    for (const { name, slot, empty, changed } of slots) {
      const typed = slot as unknown as {
        read(): Promise<{ doc: unknown; etag: string } | null>;
        create(doc: unknown): Promise<string>;
        replace(doc: unknown, etag: string): Promise<string>;
      };
      expect(await typed.create(empty), name).toBe('created');
      expect(await typed.create(empty), name).toBe('exists');
      const first = (await typed.read())!;
      expect(first.doc, name).toEqual(empty);
      expect(await typed.replace(changed, first.etag), name).toBe('replaced');
      expect(await typed.replace(empty, first.etag), name).toBe('stale');
      expect((await typed.read())?.doc, name).toEqual(changed);
    }
    const summary = {
      ...emptyVisitorsSummary(),
      people_all_time: 3,
      scanners_left_out: 1,
      counted_from: '2026-10-22',
      people_new_by_day: { '2026-10-22': 1, [DAY]: 2 },
      scanners_by_day: { [DAY]: 1 },
    };
    expect(await store.visitorsSummary.replace(summary, (await store.visitorsSummary.read())!.etag)).toBe('replaced');
    expect(await store.visitorsSummary.peopleFrom(DAY)).toEqual({
      people_all_time: 3,
      scanners_left_out: 1,
      counted_from: '2026-10-22',
      people_new_by_day: { [DAY]: 2 },
    });

    const rollup = emptyRollup(DAY, null);
    expect(await store.rollups.create(rollup)).toBe('created');
    const kept = (await store.rollups.read(DAY))!;
    expect(kept.doc).toEqual(rollup);
    const built = { ...rollup, folded_to: 9 };
    expect(await store.rollups.replace(built, kept.etag)).toBe('replaced');
    expect(await store.rollups.replace(rollup, kept.etag)).toBe('stale');
    expect(await store.rollupReader.onDays([DAY, OTHER_DAY])).toEqual(new Map([[DAY, built]]));
    expect(store.stats()).toMatchObject({ failures: 0, conflicts: 7 });
  });
});
