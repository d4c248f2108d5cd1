import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryStore } from '../adapters/memory/store';
import { startCosmos } from '../local/services';
import { addDays, daysEnding } from '../shared/core/days';
import { readPeopleCount } from '../shared/read/counting/people-count';
import { fold, type FoldOutcome } from '../shared/fold/fold';
import type { QueuedHit } from '../shared/core/message';
import { keeper } from '../test/support/keeper';
import { fixedClock } from '../shared/core/ports/clock';
import type { FoldState, Store, VisitorsSummary } from '../shared/core/store';
import { emptyFoldState } from '../shared/core/store/fold';
import { VISITORS_PK } from '../shared/core/store/visitors';
import { scanRules } from '../shared/core/subjects/scan-rule';
import { boundedMap } from '../shared/core/bounded-map';
import { freshLocalStore, keepInBatches, visitorsSummaryOf } from './local-store';
import { queued } from '../test/support/hits';
import { visitorRecord } from '../test/support/counting-cosmos';
import { callsA, costed, fmt, hex, ops } from './report';
import { withServices } from './stack';

const TODAY = '2026-10-23';
const NOW = `${TODAY}T12:01:30.000Z`;
const DAYS = 100;
const MINUTE = { hits: 1_000, visitors: 200, returning: 100 };
const LATE_DAYS = 7;
/** The visitor records already folded, a sequence each; at least 700, as the minute's returning visitors are records 0, 7, … 693. */
const SIZES = (process.env.COUNTING_RECORDS ?? '1000,100000').split(',').map(Number);

const record = (i: number) => visitorRecord(hex(i), addDays(TODAY, -1 - (i % DAYS)), i % 10 === 9);

function summaryFor(records: number): VisitorsSummary {
  const people: Record<string, number> = {};
  const scanners: Record<string, number> = {};
  for (let i = 0; i < records; i += 1) {
    const one = record(i);
    const byDay = one.who === 'people' ? people : scanners;
    byDay[one.first_seen] = (byDay[one.first_seen] ?? 0) + 1;
  }
  return visitorsSummaryOf(people, scanners);
}

const foldStateAt = (watermark: number): FoldState => ({
  ...emptyFoldState(),
  days: Object.fromEntries(daysEnding(addDays(TODAY, 1), 50).map((day) => [day, watermark])),
  records: watermark,
  records_at: NOW,
  swept_at: NOW,
});

function minuteOfHits(): QueuedHit[] {
  return Array.from({ length: MINUTE.hits }, (_, n) => {
    const visitor = n % MINUTE.visitors;
    // Returning visitors are records spread over the kept days; the others are new.
    const id = visitor < MINUTE.returning ? visitor * 7 : 10_000_000 + visitor;
    const at = new Date(Date.parse(`${TODAY}T12:00:00.000Z`) + Math.floor((n * 60_000) / MINUTE.hits)).toISOString();
    return queued(null, at, {
      token: hex(20_000_000 + visitor),
      person: hex(id),
      network: `198.51.${visitor % 200}.x`,
      path: `/page-${n % 12}`,
      served_by: n % 10 === 0 ? 'shop' : 'site',
      bot: id % 10 === 9,
      self: false,
      source: n % 17 === 0 ? 'github.com' : null,
      page_load: true,
    });
  });
}

type Fillable = Store & { documents: { create(doc: { id: string; pk: string }): unknown } };
/** On the local server: filled 48 at a time, its settled watermark stamped, 2.1 s waited past the settle margin and `_ts`'s second. */
type Pace = { lanes: number; settle: () => Promise<number>; wait: () => Promise<void> };

const outcomeOf = (outcome: FoldOutcome) =>
  outcome.ok ? `${outcome.facts} facts over ${outcome.days.length} days, ${outcome.records} records changed` : `FAILED: ${outcome.reason}`;

async function sequence(label: string, store: Fillable, records: number, { lanes, settle, wait }: Pace) {
  const clock = fixedClock(NOW);
  const filling = performance.now();
  const docs = Array.from({ length: records }, (_, i) => record(i));
  await boundedMap(docs, lanes, async (doc) => store.documents.create(doc));
  for (const doc of [summaryFor(records), foldStateAt(await settle())]) await store.documents.create(doc);
  const filled = (performance.now() - filling) / 1000;
  console.log(`${label}, ${fmt(records)} visitor records (filled in ${filled.toFixed(1)} s, already folded):`);
  await wait();
  const keep = keeper(store, clock);
  const messages = minuteOfHits().map((hit) => ({ v: 1 as const, id: randomUUID(), hits: [hit] }));
  const { cost: kept } = await costed(store, () => keepInBatches(keep, messages, 16));
  console.log(
    `  keep ${MINUTE.hits} hits of one minute (${MINUTE.visitors} visitors, ${MINUTE.returning} returning; one a message): ${callsA(kept, MINUTE.hits, 'a hit')}, ${kept.conflicts} lost races`,
  );
  await wait();
  const deps = { store, clock, rules: scanRules(10, 60), lateDays: LATE_DAYS };
  const folded = await costed(store, () => fold(deps));
  console.log(
    `  one fold of that minute: ${callsA(folded.cost, MINUTE.hits, 'a hit')} = ${ops(folded.cost)}; ${folded.ms.toFixed(0)} ms; ${outcomeOf(folded.result)}`,
  );
  const { result: count, ms, cost } = await costed(store, () => readPeopleCount({ ...store, clock }));
  const newPeople = Array.from({ length: MINUTE.visitors - MINUTE.returning }, (_, k) => 10_000_000 + MINUTE.returning + k).filter(
    (id) => id % 10 !== 9,
  ).length;
  const expected = summaryFor(records).people_all_time + newPeople;
  console.log(
    `  one pulse read: ${ops(cost)}; ${ms.toFixed(1)} ms; ${count.people_all_time} people (expected ${expected}: ${count.people_all_time === expected ? 'right' : 'WRONG'}), ${count.visits?.all_time} visits`,
  );
  await wait();
  const idle = await costed(store, () => fold(deps));
  console.log(`  one fold with nothing new: ${ops(idle.cost)}; ${idle.ms.toFixed(0)} ms; ${outcomeOf(idle.result)}`);
}

/** `npm run bench counting`: what the fold costs at 1,000 hits a minute, and the pulse, at 1,000 and 100,000 visitor records, in memory (the adapters' calls) and on the local Cosmos server (1 a call). */
export async function run(): Promise<void> {
  for (const records of SIZES) {
    const store = memoryStore();
    await sequence('in memory', store, records, { lanes: 1, settle: async () => store.documents.lastMark(), wait: async () => undefined });
  }
  await withServices([startCosmos()], async (cosmos) => {
    for (const records of SIZES) {
      const { store } = await freshLocalStore(cosmos.endpoint);
      const settle = () => store.documents.stamp({ id: 'store-clock', pk: VISITORS_PK, kind: 'store-clock' } as never);
      await sequence('on the local Cosmos server', store, records, { lanes: 48, settle, wait: () => sleep(2_100) });
    }
  });
}
