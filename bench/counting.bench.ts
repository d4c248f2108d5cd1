import { performance } from 'node:perf_hooks';
import { cosmosContainer, ensureContainer } from '../adapters/cosmos/client';
import { cosmosStore } from '../adapters/cosmos/store';
import { memoryStore } from '../adapters/memory/store';
import { COSMOS_EMULATOR_KEY, startCosmos } from '../host/local/services';
import { addDays } from '../shared/counting/days';
import { readPeopleCount } from '../shared/counting/people-count';
import { FULL_EVERY_MS, recount, type RecountDeps } from '../shared/counting/recount';
import { fixedClock } from '../shared/ports/clock';
import { memoryLogger } from '../shared/ports/logger';
import type { Store, StoreStats, VisitorDay, VisitorRecord, VisitorsSummary } from '../shared/store';
import { visitorDayId } from '../shared/store/activity';
import { VISITORS_SUMMARY_ID } from '../shared/store/summary';
import { VISITORS_PK } from '../shared/store/visitors';

const TODAY = '2026-10-23';
const DAYS = 100;
const VISITS_A_DAY = 20;

const hex = (n: number) => n.toString(16).padStart(32, '0');

const record = (i: number): VisitorRecord => {
  const day = addDays(TODAY, -(i % DAYS));
  return { id: hex(i), pk: VISITORS_PK, kind: 'visitor-record', first_seen: day, last_seen: day, days_seen: 1, recent_days: [day], who: i % 10 === 9 ? 'scanners' : 'people', counted_on: i % 10 === 9 ? null : day, ttl: -1, pending: {} };
};

const visitorDay = (day: string, i: number): VisitorDay => ({
  id: visitorDayId('site', hex(i)),
  pk: day,
  kind: 'visitor-day',
  store: 'site',
  day,
  token: hex(i),
  network: '203.0.113.x',
  first_seen: `${day}T10:00:00.000Z`,
  last_seen: `${day}T10:00:00.000Z`,
  requests: 2,
  bots: i % 10 === 9 ? 2 : 0,
  self: 0,
  paths: { '/': 2 },
  sources: {},
  page_loads: 1,
  applied: { [`m${i}`]: 1_790_000_000 },
});

/** The visitors summary that agrees with the records (so the reconciliation finds nothing to heal). */
function summaryFor(records: number): VisitorsSummary {
  const byDay: Record<string, number> = {};
  let people = 0;
  for (let i = 0; i < records; i += 1) {
    const one = record(i);
    if (one.counted_on === null) continue;
    people += 1;
    byDay[one.counted_on] = (byDay[one.counted_on] ?? 0) + 1;
  }
  const countedFrom = Object.keys(byDay).sort()[0] ?? null;
  return { id: VISITORS_SUMMARY_ID, pk: VISITORS_PK, kind: 'visitors-summary', people_all_time: people, scanners_left_out: records - people, counted_from: countedFrom, people_new_by_day: byDay, applied: {} };
}

type Fillable = Store & { documents: { create(doc: { id: string; pk: string }): unknown } };

async function createAll(store: Fillable, docs: Iterable<{ id: string; pk: string }>, lanes = 48) {
  const source = docs[Symbol.iterator]();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let next = source.next(); !next.done; next = source.next()) await store.documents.create(next.value);
    }),
  );
}

function* documentsFor(records: number) {
  yield summaryFor(records);
  for (let i = 0; i < records; i += 1) yield record(i);
  for (let back = 0; back < DAYS; back += 1) for (let i = 0; i < VISITS_A_DAY; i += 1) yield visitorDay(addDays(TODAY, -back), back * VISITS_A_DAY + i);
}

const ops = (before: StoreStats, after: StoreStats) => `${after.reads - before.reads} point reads, ${after.queries - before.queries} queries, ${after.writes - before.writes} writes`;

async function measure<T>(store: Store, what: string, run: () => Promise<T>, note: (result: T) => string = () => '') {
  const before = store.stats();
  const start = performance.now();
  const result = await run();
  console.log(`  ${what}: ${ops(before, store.stats())}, ${(performance.now() - start).toFixed(1)} ms${note(result) ? ` (${note(result)})` : ''}`);
}

const depsOf = (store: Store, clock: ReturnType<typeof fixedClock>): RecountDeps => ({
  visits: store.visits,
  activity: store.activityReader,
  changes: store.visitorDayChanges,
  clock,
  logger: memoryLogger(),
  lateDays: 7,
  reconcile: { summary: store.summary, census: store.census, receipts: store.receipts },
});

const rowsOf = (outcome: Awaited<ReturnType<typeof recount>>) => (outcome.ok ? `${outcome.plan.read}, ${outcome.rows} rows, reconciled ${outcome.reconciled}` : outcome.reason);

/** A first count, a pulse read, a count a minute later and one an hour later (with the reconciliation). */
async function sequence(store: Store) {
  const clock = fixedClock(`${TODAY}T12:00:00.000Z`);
  const deps = depsOf(store, clock);
  await measure(store, 'first recount (every kept day, and the reconciliation)', () => recount(deps), rowsOf);
  await measure(store, 'one pulse read', () => readPeopleCount({ visitors: store.visitors, visits: store.visits, clock, source: store.source }), (result) => `${result.people_all_time} people, ${result.visits?.all_time} visits`);
  clock.advance(60_000);
  await measure(store, 'one recount a minute later (today)', () => recount(deps), rowsOf);
  clock.advance(FULL_EVERY_MS);
  await measure(store, 'one recount an hour later (the late-hit week, and the reconciliation)', () => recount(deps), rowsOf);
}

/**
 * The cost of one pulse read and one recount at 1,000 and 100,000 visitor records (and 2,000 visitor-days over 100
 * days): in memory (the operations, which are the adapters' same calls), and on the local Cosmos server (which charges
 * 1 a call, and whose queries scan every document where Azure's use the index).
 */
export async function run(): Promise<void> {
  for (const records of [1_000, 100_000]) {
    const store = memoryStore();
    await createAll(store, documentsFor(records), 1);
    console.log(`in memory, ${records.toLocaleString('en')} visitor records:`);
    await sequence(store);
  }
  const cosmos = await startCosmos();
  try {
    const container = cosmosContainer({ endpoint: cosmos.endpoint, auth: { key: COSMOS_EMULATOR_KEY }, database: 'bench', container: 'activity', requestTimeoutMs: 600_000 });
    await ensureContainer(container);
    const store = cosmosStore(container);
    await createAll(store, documentsFor(1_000));
    console.log('on the local Cosmos server, 1,000 visitor records:');
    await sequence(store);
    const more = performance.now();
    await createAll(store, (function* () {
      for (let i = 1_000; i < 100_000; i += 1) yield record(i);
    })());
    console.log(`on the local Cosmos server, 100,000 visitor records (99,000 more in ${((performance.now() - more) / 1000).toFixed(0)} s):`);
    const clock = fixedClock(`${TODAY}T13:02:00.000Z`);
    await measure(store, 'one pulse read', () => readPeopleCount({ visitors: store.visitors, visits: store.visits, clock, source: store.source }), (result) => `${result.people_all_time ?? 'unread'} people (the summary was not rewritten for these)`);
    await measure(store, 'one recount a minute later (today, reconciliation not due)', () => recount({ ...depsOf(store, clock), reconcile: undefined }), rowsOf);
    const census = performance.now();
    const counted = await store.census.count(addDays(TODAY, -34)).then((value) => `${value.people} people`, (error: Error) => `failed: ${error.message.split('\n', 1)[0]!.slice(0, 80)}`);
    console.log(`  the reconciliation's census (COUNT, COUNT, MIN, the window): ${counted}, ${(performance.now() - census).toFixed(0)} ms (a scan of every document here; an index read on Azure)`);
  } finally {
    await cosmos.stop();
  }
}
