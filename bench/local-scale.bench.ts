import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { BulkOperationType, type Container } from '@azure/cosmos';
import { startCosmos } from '../host/local/services';
import { activityCard } from '../shared/activity/card';
import { adminAccess } from '../shared/admin/auth';
import { funnelStepsSetting } from '../shared/activity/funnel';
import { addDays, daysEnding } from '../shared/counting/days';
import { recounted } from '../shared/folding/by-day';
import { fold } from '../shared/folding/fold';
import type { QueuedHit } from '../shared/hits/message';
import { keeper } from '../shared/keeping/keep';
import { fixedClock } from '../shared/ports/clock';
import type {
  ActivityHour,
  Fact,
  FoldState,
  HourPart,
  StoreStats,
  VisitorDay,
  VisitorDayPart,
  VisitorRecord,
  VisitsSummary,
} from '../shared/store';
import { hourId, visitorDayId } from '../shared/store/activity';
import { FACT_TTL_SECONDS, factId, FOLD_DAYS } from '../shared/store/facts';
import { emptyFoldState } from '../shared/store/fold';
import { VISITORS_PK } from '../shared/store/visitors';
import { VISITS_SUMMARY_ID } from '../shared/store/visits';
import { scanRules } from '../shared/subjects/scan-rule';
import { cardRequest, freshLocalStore, visitorsSummaryOf } from './local-store';

/**
 * The sizing of "1,000,000 hits" in this design. 100,000 visitors, each seen on 2 days with 5 page loads a day, over 60
 * days: 200,000 visitor-days (one document per store per daily token per day), 2 stores × 24 hours × 60 days of hour
 * documents, and the facts of the last 46 days only (FACT_TTL_SECONDS: older ones have expired), the site server's
 * messages of 10 hits each (beacons, one hit a message, would make ten times as many facts).
 */
const VISITORS = 100_000;
const DAYS = 60;
const DAYS_SEEN = 2;
const HITS_A_DAY_SEEN = 5;
const HITS_A_MESSAGE = 10;
const FACT_DAYS = FOLD_DAYS + 1;
/** The design before facts: its recount at 100,000 visitor records took this long on the local server. */
const BEFORE_RECOUNT_S = 208;
const OPERATOR_KEY = 'bench-operator-key-0123456789';

const hex = (n: number) => n.toString(16).padStart(32, '0');
const tokenOf = (visitor: number, day: string) => hex(0x7000000 + visitor).slice(-20) + day.replaceAll('-', '').padStart(12, '0');
const isScanner = (visitor: number) => visitor % 10 === 9;
const storeOf = (visitor: number) => (visitor % 10 === 0 ? 'shop' : 'site');

/** The day indexes (0 = oldest, DAYS - 1 = yesterday) a visitor was seen on. */
function daysOf(visitor: number): [number, number] {
  const first = visitor % DAYS;
  const gap = 1 + (visitor % 7);
  return first + gap < DAYS ? [first, first + gap] : [first - gap, first];
}

/** A visitor-day and its hits' hour, as a fold of its facts made it. */
function visitorDayOf(visitor: number, day: string, foldedTo: number): VisitorDay {
  const scanner = isScanner(visitor);
  const hour = String(visitor % 24).padStart(2, '0');
  const store = storeOf(visitor);
  const token = tokenOf(visitor, day);
  return {
    id: visitorDayId(store, token),
    pk: day,
    kind: 'visitor-day',
    store,
    day,
    token,
    network: `203.0.${visitor % 250}.x`,
    first_seen: `${day}T${hour}:00:00.000Z`,
    last_seen: `${day}T${hour}:20:00.000Z`,
    requests: HITS_A_DAY_SEEN,
    bots: scanner ? HITS_A_DAY_SEEN : 0,
    self: 0,
    paths: scanner ? { '/wp-login.php': HITS_A_DAY_SEEN } : { '/': 2, '/about': 1, [`/page-${visitor % 12}`]: 2 },
    sources: !scanner && visitor % 17 === 0 ? { 'github.com': 1 } : {},
    page_loads: scanner ? 0 : HITS_A_DAY_SEEN,
    visit: !scanner,
    folded_to: foldedTo,
  };
}

const partOf = ({ pk: _pk, kind: _kind, visit: _visit, folded_to: _folded, ...part }: VisitorDay): VisitorDayPart => part;

function hourPartsOf(rows: readonly VisitorDay[], day: string): HourPart[] {
  const hours = new Map<string, HourPart>();
  for (const row of rows) {
    const hh = row.first_seen.slice(11, 13);
    const id = hourId(row.store, hh);
    const hour = hours.get(id) ?? { id, day, store: row.store, hour: `${day}T${hh}:00:00.000Z`, requests: 0, bots: 0, self: 0, paths: {} };
    hour.requests += row.requests;
    hour.bots += row.bots;
    for (const [path, n] of Object.entries(row.paths)) hour.paths[path] = (hour.paths[path] ?? 0) + n;
    hours.set(id, hour);
  }
  return [...hours.values()];
}

/** Every document of the fixture, day by day, then the records and the summaries (the fold state is written after, at the store's mark). */
function* fixture(yesterday: string, foldedTo: number, counts: Record<string, number>) {
  const dayName = (index: number) => addDays(yesterday, index - (DAYS - 1));
  const byDay: number[][] = Array.from({ length: DAYS }, () => []);
  for (let v = 0; v < VISITORS; v += 1) for (const d of daysOf(v)) byDay[d]!.push(v);
  const visits: Record<string, number> = {};
  const count = (kind: string) => (counts[kind] = (counts[kind] ?? 0) + 1);
  for (let d = 0; d < DAYS; d += 1) {
    const day = dayName(d);
    const rows = byDay[d]!.map((v) => visitorDayOf(v, day, foldedTo));
    for (const row of rows) {
      count('visitor-day');
      yield row;
    }
    visits[day] = rows.filter((row) => row.visit).length;
    for (const part of hourPartsOf(rows, day)) {
      count('activity-hour');
      yield { ...part, pk: day, kind: 'activity-hour', folded_to: foldedTo } satisfies ActivityHour;
    }
    if (d < DAYS - FACT_DAYS) continue;
    // The facts the fold read these from, still there: one a message of 10 hits (2 visitor-days of 5).
    const perFact = HITS_A_MESSAGE / HITS_A_DAY_SEEN;
    for (let first = 0; first < rows.length; first += perFact) {
      const chunk = rows.slice(first, first + perFact);
      const message = randomUUID();
      count('fact');
      yield {
        id: factId(message),
        pk: day,
        kind: 'fact',
        day,
        message,
        hits: chunk.reduce((sum, row) => sum + row.requests, 0),
        visitor_days: chunk.map(partOf),
        hours: hourPartsOf(chunk, day),
        scans: [],
        ttl: FACT_TTL_SECONDS,
      } satisfies Fact;
    }
  }
  const people: Record<string, number> = {};
  const scanners: Record<string, number> = {};
  for (let v = 0; v < VISITORS; v += 1) {
    const [first, last] = daysOf(v).map(dayName) as [string, string];
    const scanner = isScanner(v);
    (scanner ? scanners : people)[first] = ((scanner ? scanners : people)[first] ?? 0) + 1;
    count('visitor-record');
    yield {
      id: hex(v),
      pk: VISITORS_PK,
      kind: 'visitor-record',
      first_seen: first,
      last_seen: last,
      days_seen: DAYS_SEEN,
      recent_days: [first, last],
      who: scanner ? 'scanners' : 'people',
      counted_on: scanner ? null : first,
      moved_days: [],
      counts_changed_at: `${first}T12:00:00.000Z`,
      ttl: scanner ? 7_776_000 : -1,
    } satisfies VisitorRecord;
  }
  count('summaries');
  yield visitorsSummaryOf(people, scanners);
  count('summaries');
  const visitsByDay = recounted({}, Object.entries(visits));
  yield {
    id: VISITS_SUMMARY_ID,
    pk: VISITORS_PK,
    kind: 'visits-summary',
    all_time: visitsByDay.total,
    from: visitsByDay.first,
    by_day: visitsByDay.byDay,
  } satisfies VisitsSummary;
}

/** Bulk creates (the SDK's bulk: batches per partition), a few batches at a time. */
async function load(container: Container, docs: Iterable<{ id: string; pk: string }>) {
  const source = docs[Symbol.iterator]();
  let failed = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (;;) {
        const batch: Array<{ id: string; pk: string }> = [];
        for (let next = source.next(); !next.done; next = source.next()) {
          batch.push(next.value);
          if (batch.length === 100) break;
        }
        if (batch.length === 0) return;
        const results = await container.items.bulk(
          batch.map((resourceBody) => ({ operationType: BulkOperationType.Create, resourceBody })),
        );
        failed += results.filter((result) => result.statusCode !== 201).length;
      }
    }),
  );
  if (failed > 0) throw new Error(`${failed} documents were not created`);
}

const spent = (before: StoreStats, after: StoreStats) =>
  `${after.reads - before.reads} reads, ${after.writes - before.writes} writes, ${after.queries - before.queries} queries`;

/** `npm run bench local-scale`: the local stack holding 1,000,000 hits' documents; one fold after a minute's hits, one 30-day Activity card read. */
export async function run(): Promise<void> {
  const cosmos = await startCosmos();
  try {
    const { container, store } = await freshLocalStore(cosmos.endpoint, { prefix: 'scale' });
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const clock = fixedClock(now);
    const hits = VISITORS * DAYS_SEEN * HITS_A_DAY_SEEN;
    console.log(
      `${hits.toLocaleString('en')} hits = ${VISITORS.toLocaleString('en')} visitors × ${DAYS_SEEN} days seen × ${HITS_A_DAY_SEEN} page loads, over ${DAYS} days to yesterday; ` +
        `facts of the last ${FACT_DAYS} days only (their TTL), ${HITS_A_MESSAGE} hits a message (one-hit beacons would make ${HITS_A_MESSAGE}× the facts)`,
    );
    const counts: Record<string, number> = {};
    const loading = performance.now();
    await load(container, fixture(addDays(today, -1), Math.floor(now.getTime() / 1000), counts));
    // Folded up to the store's mark now: every near day and the records.
    const mark = await store.documents.stamp({ id: 'store-clock', pk: VISITORS_PK, kind: 'store-clock' } as never);
    const state: FoldState = {
      ...emptyFoldState(),
      days: Object.fromEntries(daysEnding(addDays(today, 1), FOLD_DAYS + 3).map((day) => [day, mark])),
      records: mark,
      records_at: now.toISOString(),
      swept_at: now.toISOString(),
    };
    await store.documents.stamp(state);
    const total = Object.values(counts).reduce((a, b) => a + b, 0) + 2;
    console.log(
      `loaded ${total.toLocaleString('en')} documents in ${((performance.now() - loading) / 1000).toFixed(0)} s: ${Object.entries(counts)
        .map(([kind, n]) => `${n.toLocaleString('en')} ${kind}`)
        .join(', ')}, fold-state, store-clock`,
    );

    // One minute's new hits: 200 visitors × 5 page loads, half of them returning (records spread over the 60 days), 10 a message.
    const minute: QueuedHit[] = Array.from({ length: 1_000 }, (_, n) => {
      const visitor = n % 200;
      const id = visitor < 100 ? visitor * 997 : 10_000_000 + visitor;
      return {
        at: new Date(now.getTime() - 60_000 + n * 60).toISOString(),
        token: hex(20_000_000 + visitor),
        person: hex(id),
        network: `198.51.${visitor}.x`,
        path: `/page-${n % 12}`,
        store: storeOf(id),
        bot: isScanner(id),
        self: false,
        source: null,
        page_load: !isScanner(id),
        subject: null,
      };
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const keep = keeper(store, clock);
    const messages = Array.from({ length: minute.length / HITS_A_MESSAGE }, (_, m) => ({
      v: 1 as const,
      id: randomUUID(),
      hits: minute.slice(m * HITS_A_MESSAGE, (m + 1) * HITS_A_MESSAGE),
    }));
    let before = store.stats();
    let started = performance.now();
    for (let first = 0; first < messages.length; first += 16)
      await Promise.all(messages.slice(first, first + 16).map((message) => keep(message)));
    console.log(
      `kept 1,000 hits of the last minute (100 messages, 16 at a time): ${spent(before, store.stats())}, ${(performance.now() - started).toFixed(0)} ms`,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_100));

    before = store.stats();
    started = performance.now();
    const outcome = await fold({ store, clock, rules: scanRules(10, 60), lateDays: 7 });
    const foldSeconds = (performance.now() - started) / 1000;
    console.log(
      `one fold after that minute: ${foldSeconds.toFixed(1)} s (the design before: recount at 100,000 records ${BEFORE_RECOUNT_S} s); ${spent(before, store.stats())}; ` +
        (outcome.ok
          ? `${outcome.facts} facts over ${outcome.days.length} day(s), ${outcome.records} records changed`
          : `FAILED: ${outcome.reason}`),
    );

    const deps = {
      store,
      clock,
      logger: { info() {}, warn() {}, error() {} },
      funnel: funnelStepsSetting.parse(undefined),
      goals: [],
      operator: {
        operatorKey: OPERATOR_KEY,
        hashKey: 'bench-hash-key-0123456789abcdef',
        access: adminAccess({ clock, sessionHours: 8, trustedProxyHops: 0 }),
      },
    };
    before = store.stats();
    started = performance.now();
    const card = await activityCard(cardRequest(30, OPERATOR_KEY), deps);
    const body = card.body as { available?: boolean } | undefined;
    console.log(
      `one 30-day Activity card read: ${((performance.now() - started) / 1000).toFixed(1)} s; ${spent(before, store.stats())}; status ${card.status}${body?.available === false ? ' (store unavailable)' : ''}`,
    );
  } finally {
    await cosmos.stop();
  }
}
