import { performance } from 'node:perf_hooks';
import { cosmosContainer, ensureContainer } from '../adapters/cosmos/client';
import { cosmosStore } from '../adapters/cosmos/store';
import { memoryStore } from '../adapters/memory/store';
import { COSMOS_EMULATOR_KEY, startCosmos } from '../host/local/services';
import { activityCard } from '../shared/activity/card';
import { funnelStepsSetting } from '../shared/activity/funnel';
import { daysEnding } from '../shared/counting/days';
import { fixedClock } from '../shared/ports/clock';
import type { ActivityHour, Store, VisitorDay } from '../shared/store';
import { cardRequest } from './local-store';

const TODAY = '2026-10-23';
const DAYS_KEPT = 400;
const OPERATOR_KEY = 'bench-operator-key-0123456789';
const hex = (n: number) => n.toString(16).padStart(32, '0');

/** A day's documents as keep-hits keeps them: 12 people, 8 scanners, 2 of the site's own reads, and 6 store-hours. */
function dayOfDocs(day: string, dayIndex: number): Array<VisitorDay | ActivityHour> {
  const visitorDays = Array.from({ length: 22 }, (_, i): VisitorDay => {
    const store = i % 2 === 0 ? 'cosmos' : 'sql';
    const token = hex(dayIndex * 100 + i);
    const kind = i < 12 ? 'people' : i < 20 ? 'scanners' : 'self';
    return {
      id: `visitor-day:${store}:${token}`,
      pk: day,
      kind: 'visitor-day',
      store,
      day,
      token,
      network: `203.0.${i}.x`,
      first_seen: `${day}T08:00:00.000Z`,
      last_seen: `${day}T09:00:00.000Z`,
      requests: 4,
      bots: kind === 'scanners' ? 4 : 0,
      self: kind === 'self' ? 4 : 0,
      paths: { '/': 2, '/about': 1, [i % 3 === 0 ? '/resume.pdf' : '/projects']: 1 },
      sources: i % 4 === 0 ? { 'www.linkedin.com': 1 } : i % 4 === 1 ? { 'www.google.co.uk': 1 } : {},
      page_loads: 2,
      visit: kind === 'people',
      folded_to: 0,
    };
  });
  const hours = Array.from({ length: 6 }, (_, i): ActivityHour => {
    const store = i % 2 === 0 ? 'cosmos' : 'sql';
    const hour = String(8 + Math.floor(i / 2)).padStart(2, '0');
    return {
      id: `hour:${store}:${hour}`,
      pk: day,
      kind: 'activity-hour',
      store,
      day,
      hour: `${day}T${hour}:00:00.000Z`,
      requests: 30,
      bots: 10,
      self: 2,
      paths: { '/': 20, '/about': 10 },
      folded_to: 0,
    };
  });
  return [...visitorDays, ...hours];
}

async function keep(store: Store, docs: Array<VisitorDay | ActivityHour>) {
  for (let i = 0; i < docs.length; i += 32) await Promise.all(docs.slice(i, i + 32).map((doc) => store.activity.create(doc)));
}

/** One read of the card for `days`, five times: the operations of one read, the partitions its documents came from, and the median time. */
async function measure(label: string, store: Store, days: number) {
  const deps = {
    store,
    clock: fixedClock(`${TODAY}T12:00:00Z`),
    logger: { info() {}, warn() {}, error() {} },
    funnel: funnelStepsSetting.parse(undefined),
    operator: { operatorKey: OPERATOR_KEY, hashKey: 'bench-hash-key-0123456789abcdef' },
  };
  const times: number[] = [];
  let operations = { reads: 0, writes: 0, queries: 0, requestUnits: 0 };
  for (let run = 0; run < 5; run += 1) {
    const before = store.stats();
    const started = performance.now();
    const answer = await activityCard(cardRequest(days, OPERATOR_KEY), deps);
    times.push(performance.now() - started);
    const after = store.stats();
    if (answer.status !== 200) throw new Error(`the card answered ${answer.status}`);
    operations = {
      reads: after.reads - before.reads,
      writes: after.writes - before.writes,
      queries: after.queries - before.queries,
      requestUnits: after.requestUnits - before.requestUnits,
    };
  }
  const since = daysEnding(TODAY, days)[0]!;
  const partitions = new Set((await store.activityReader.visitorDaysSince(since)).map((doc) => doc.pk)).size;
  const median = times.sort((a, b) => a - b)[2]!;
  console.log(
    `${label} ${String(days).padStart(3)} days: ${operations.queries} queries, ${operations.reads} point reads, ${operations.writes} writes, ` +
      `${operations.requestUnits} RU, visitor-days from ${partitions} day partitions, median ${median.toFixed(1)} ms`,
  );
}

/** The Activity card's read for 30 and 400 days, on the local Cosmos server and in memory, over 400 days of documents. */
export async function run(): Promise<void> {
  const cosmos = await startCosmos();
  try {
    const container = cosmosContainer({
      endpoint: cosmos.endpoint,
      auth: { key: COSMOS_EMULATOR_KEY },
      database: 'bench-activity',
      container: 'activity',
    });
    await ensureContainer(container);
    const stores: Array<[string, Store]> = [
      ['local Cosmos server', cosmosStore(container)],
      ['memory             ', memoryStore()],
    ];
    const docs = daysEnding(TODAY, DAYS_KEPT).flatMap((day, index) => dayOfDocs(day, index));
    console.log(
      `${docs.length} documents over ${DAYS_KEPT} days (22 visitor-days and 6 store-hours a day); the local server reports 1 RU a call`,
    );
    for (const [label, store] of stores) {
      await keep(store, docs);
      for (const days of [30, 400]) await measure(label, store, days);
    }
  } finally {
    await cosmos.stop();
  }
}
