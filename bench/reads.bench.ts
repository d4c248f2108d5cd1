import { performance } from 'node:perf_hooks';
import type { Container } from '@azure/cosmos';
import { startCosmos, type Azurite } from '../local/services';
import type { PeriodReportAnswer } from '../shared/contract/activity';
import { funnelStepsSetting } from '../shared/core/funnel';
import { emptyRollup, moved } from '../shared/core/rollup/day-rollup';
import { sketchOf } from '../shared/core/sketch';
import { addDays } from '../shared/core/days';
import { countedAgain } from '../shared/fold/by-day';
import { withHour } from '../shared/fold/add';
import type { ActivityHour, VisitorDay } from '../shared/core/store';
import { hourId } from '../shared/core/store/activity';
import { VISITORS_PK } from '../shared/core/store/visitors';
import { emptyVisits } from '../shared/core/store/visits';
import { bulkUpsert, freshLocalStore, visitorsSummaryOf } from './local-store';
import { visitorRecord } from '../test/support/counting-cosmos';
import { visitorDay } from '../test/support/counting';
import { fmt, hex } from './report';
import { KEYS, postHits } from './settings';
import {
  AGENTS,
  benchClock,
  bodiesOf,
  clockedHost,
  dayHits,
  foldUntilCaughtUp,
  personAddress,
  postDays,
  type BenchClock,
} from './site-traffic';
import { costOf, storeProxyTo, type Cost, type StoreProxy } from './store-calls';
import { azuriteWithBlobs, withServices } from './stack';

/** `npm run bench reads`: what every Admin read costs the store at V and 4V people a day, measured at a proxy in front of the local Cosmos server; then a 400-day card over 100,000 records, and long ranges over imported years. */
const V = Number(process.env.READS_V ?? 300);
const DAYS_POSTED = 8;
const NEW_SHARE = 0.6;
const SCANNER_SHARE = 0.1;
/** Visitor records of the 400-day card, a multiple of 400. */
const BIG_VISITORS = Number(process.env.READS_BIG ?? 100_000);
const BIG_DAYS = 400;
const GOALS = 'signup=event:signup|cv=event:download|resume=path:/resume';
const GOAL_NAMES = ['signup', 'cv', 'resume'];
const EVENT_NAMES = ['signup', 'download', 'outbound'];
const FILES = ['cv.pdf', 'slides.pdf', 'talk.pdf', 'dataset.zip', 'notes.pdf', 'code.zip'];
const OUTBOUND_HOSTS = ['github.com', 'www.linkedin.com', 'gitlab.com', 'dev.to', 'mastodon.social'];

/** Person `p`'s events: one in six signs up, one in four downloads a file, one in five follows a link out. */
function eventsOf(p: number): Array<{ event: string; props: Record<string, string> }> {
  const events: Array<{ event: string; props: Record<string, string> }> = [];
  if (p % 6 === 0) events.push({ event: 'signup', props: { plan: p % 18 === 0 ? 'pro' : 'free' } });
  if (p % 4 === 1) events.push({ event: 'download', props: { path: `/files/${FILES[Math.floor(p / 4) % FILES.length]!}` } });
  if (p % 5 === 2) events.push({ event: 'outbound', props: { host: OUTBOUND_HOSTS[Math.floor(p / 5) % OUTBOUND_HOSTS.length]! } });
  return events;
}

type Measured = Awaited<ReturnType<typeof measure>>;

const startHost = (azurite: Azurite, proxyEndpoint: string, database: string, clock: BenchClock) =>
  clockedHost(azurite.connectionString, proxyEndpoint, 'reads', { COSMOS_DATABASE: database, GOALS }, clock);

const read = (url: string, path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${KEYS.OPERATOR_KEY}` } });

async function measure(url: string, name: string, path: string, proxy: StoreProxy) {
  proxy.take();
  const started = performance.now();
  const answer = await read(url, path);
  const body = await answer.text();
  const ms = performance.now() - started;
  const calls = proxy.take();
  return { name, calls, cost: costOf(calls), ms, status: answer.status, body };
}

/** Throws unless the 30-day card, read before the reads are measured, has each goal and event, with props. */
async function checkGoalsAndEvents(url: string): Promise<void> {
  const answer = await read(url, '/api/admin/activity?days=30');
  const text = await answer.text();
  const body = (answer.status === 200 ? JSON.parse(text) : {}) as Partial<PeriodReportAnswer>;
  const [goals, events] = [body.goals ?? [], body.events ?? []];
  const lacking = [
    ...GOAL_NAMES.filter((name) => !goals.some((row) => row.goal === name && row.conversions > 0 && row.people_all_time > 0)),
    ...EVENT_NAMES.filter((name) => !events.some((row) => row.event === name && row.count > 0 && Object.keys(row.props).length > 0)),
  ];
  if (lacking.length > 0) throw new Error(`the card lacks ${lacking.join(', ')} after the fold (${answer.status}): ${text.slice(0, 500)}`);
}

type Scale = Awaited<ReturnType<typeof atScale>>;

/** Eight days of traffic at `people` a day on a fresh database, folded, then every read measured. */
async function atScale(people: number, azurite: Azurite, cosmosEndpoint: string, proxy: StoreProxy) {
  const began = performance.now();
  const { container } = await freshLocalStore(cosmosEndpoint, { prefix: `reads${people}` });
  const today = new Date().toISOString().slice(0, 10);
  const firstDay = addDays(today, -DAYS_POSTED);
  const clock = benchClock(`${firstDay}T23:10:00Z`);
  const { host, logger } = await startHost(azurite, proxy.endpoint, container.database.id, clock);
  try {
    const scanners = Math.round(people * SCANNER_SHARE);
    const { posted, events, foldRuns } = await postDays(host, logger, clock, DAYS_POSTED, (day, d) =>
      dayHits(day, d, Math.floor(d * NEW_SHARE * people), people, scanners, eventsOf),
    );
    await checkGoalsAndEvents(host.url);
    const fullDay = addDays(today, -1);
    const reads: Array<[string, string]> = [
      ['GET /api/pulse', '/api/pulse'],
      ['GET /api/admin/visitors/people', '/api/admin/visitors/people'],
      ['GET /api/admin/activity?days=30', '/api/admin/activity?days=30'],
      ['GET /api/admin/activity?days=400', '/api/admin/activity?days=400'],
      ['GET /api/admin/activity/visitors?day=D (first page)', `/api/admin/activity/visitors?day=${fullDay}`],
      ['GET /api/admin/export (30 days)', `/api/admin/export?from=${addDays(today, -29)}&to=${today}`],
      ['GET /api/admin/activity?days=30, one filter (page:/resume)', '/api/admin/activity?days=30&filter=page:/resume'],
      ['GET /api/admin/activity?days=400, one filter (page:/resume)', '/api/admin/activity?days=400&filter=page:/resume'],
      [
        'GET /api/admin/activity?days=30, two filters (page:/resume, event:download)',
        '/api/admin/activity?days=30&filter=page:/resume&filter=event:download',
      ],
      ['GET /api/admin/activity?days=30, one filter with ! (!page:/resume)', '/api/admin/activity?days=30&filter=!page:/resume'],
      [
        'GET /api/admin/activity?days=30, three filters (page:/resume, event:download, !referrer:github.com)',
        '/api/admin/activity?days=30&filter=page:/resume&filter=event:download&filter=!referrer:github.com',
      ],
      [
        'GET /api/admin/retention?months=12, two filters (page:/resume, !event:download)',
        '/api/admin/retention?months=12&filter=page:/resume&filter=!event:download',
      ],
      ['GET /api/admin/export (30 days, one filter)', `/api/admin/export?from=${addDays(today, -29)}&to=${today}&filter=page:/resume`],
      ['GET /api/admin/retention?months=12', '/api/admin/retention?months=12'],
      ['GET /api/admin/retention?months=12, one filter (page:/resume)', '/api/admin/retention?months=12&filter=page:/resume'],
    ];
    for (const [name, path] of reads) await measure(host.url, name, path, proxy);
    const measured: Measured[] = [];
    for (const [name, path] of reads) measured.push(await measure(host.url, name, path, proxy));
    const bad = measured.filter((read) => read.status !== 200);
    if (bad.length > 0) console.log(`  (answers not 200: ${bad.map((read) => `${read.name} ${read.status}`).join(', ')})`);
    const rollup = await rollupOf(container, fullDay);
    return { people, measured, rollup, posted, events, foldRuns, seconds: (performance.now() - began) / 1000 };
  } finally {
    await host.stop();
  }
}

async function rollupOf(container: Container, day: string) {
  const { resource } = await container.item('day-rollup', day).read<Record<string, unknown>>();
  if (!resource) throw new Error(`no day rollup for ${day}`);
  const kbOf = (value: unknown) => JSON.stringify(value ?? {}).length / 1024;
  return {
    kb: kbOf(resource),
    sketchKb: kbOf(resource.people_sketch),
    eventsKb: kbOf({ events: resource.events, event_days: resource.event_days, event_props: resource.event_props, goals: resource.goals }),
  };
}

const costText = (cost: Cost) => `${fmt(cost.calls)} calls ${fmt(cost.kb, 1)} KB ~${fmt(cost.ru)} RU`;

/** A several-filter answer says whether it is whole, and what it read of the day files in Blob Storage beside the store. */
const wholeText = (read: Measured) => {
  const body = (read.status === 200 ? JSON.parse(read.body) : {}) as {
    rollups?: { complete?: boolean };
    cost?: { day_file_bytes?: number };
  };
  const complete = body.rollups?.complete;
  const files = body.cost?.day_file_bytes;
  return (
    (complete === undefined ? '' : complete ? ', complete' : ', NOT complete') +
    (files === undefined ? '' : `, beside it Blob ${fmt(files / 1024, 1)} KB of the day files' columns asked`)
  );
};

const atBoth = (read: Measured, big: Measured) =>
  `V ${costText(read.cost)} ${fmt(read.ms)} ms${wholeText(read)} | 4V ${costText(big.cost)} ${fmt(big.ms)} ms${wholeText(big)} | growth ×${fmt(read.cost.kb > 0 ? big.cost.kb / read.cost.kb : Number.NaN, 2)}`;

/** The 30-day card's read, which carries the goals and events, then what of it is theirs. */
function goalsAndEventsLines(small: Scale, large: Scale): void {
  const [read, big] = [small.measured[2]!, large.measured[2]!];
  console.log(
    `the card's goals and events (${GOAL_NAMES.length} goals, ${EVENT_NAMES.length} events with props), ${read.name}, the read that carries them ` +
      `with the card's other figures: ${atBoth(read, big)}`,
  );
  const summaries = (measured: Measured) =>
    costOf(measured.calls.filter((call) => call.kind === 'point read' && decodeURIComponent(call.id ?? '').startsWith('goal-summary:')));
  const [own, ownBig] = [summaries(read), summaries(big)];
  const lists =
    `; a day's rollup's events and goals lists: V ${fmt(small.rollup.eventsKb, 1)} KB | 4V ${fmt(large.rollup.eventsKb, 1)} KB ` +
    `(of ${fmt(small.rollup.kb, 1)} and ${fmt(large.rollup.kb, 1)} KB)`;
  console.log(`  of it, the goals' summaries (a point read a goal): V ${costText(own)} | 4V ${costText(ownBig)}${lists}`);
}

/** 100,000 visitors over 400 days, each seen once, their summaries, two days' hours, each day's rollup, a fold state all built. */
function* bigFixture(today: string, watermark: number, counts: Record<string, number>) {
  const steps = funnelStepsSetting.parse(undefined);
  const count = (kind: string, n = 1) => (counts[kind] = (counts[kind] ?? 0) + n);
  const people: Record<string, number> = {};
  const scanners: Record<string, number> = {};
  const visits: Record<string, number> = {};
  const perDay = BIG_VISITORS / BIG_DAYS;
  for (let d = 0; d < BIG_DAYS; d += 1) {
    const day = addDays(today, d - BIG_DAYS);
    const rows: VisitorDay[] = [];
    for (let n = 0; n < perDay; n += 1) {
      const v = d * perDay + n;
      const scanner = v % 10 === 9;
      const hour = String(n % 24).padStart(2, '0');
      const paths: Record<string, number> = scanner ? { '/wp-login.php': 2 } : { '/': 1, '/about': 1, [`/blog/post-${v % 40}`]: 1 };
      const requests = scanner ? 2 : 3;
      rows.push({
        ...visitorDay(day, `visitor ${v}`, { network: `10.${(v >> 16) & 255}.${(v >> 8) & 255}.x`, requests, bots: scanner ? 2 : 0 }),
        first_seen: `${day}T${hour}:00:00.000Z`,
        last_seen: `${day}T${hour}:02:00.000Z`,
        paths,
        sources: !scanner && v % 7 === 0 ? { 'github.com': 1 } : {},
        page_loads: scanner ? 0 : 3,
        visit: !scanner,
        country: ['DE', 'US', 'GB', 'FR', 'NL'][v % 5]!,
        browsers: { [['chrome', 'safari', 'firefox'][v % 3]!]: requests },
        systems: { [['windows', 'macos', 'ios', 'android'][v % 4]!]: requests },
        devices: { [v % 3 === 0 ? 'mobile' : 'desktop']: requests },
        campaigns: {},
        ...(scanner ? {} : { page_paths: paths, entry: '/', entry_at: `${day}T${hour}:00:00.000Z` }),
        ...(scanner ? {} : { people_sketch: sketchOf([hex(v)]) }),
        folded_to: watermark,
      });
      (scanner ? scanners : people)[day] = ((scanner ? scanners : people)[day] ?? 0) + 1;
    }
    visits[day] = rows.filter((row) => row.visit).length;
    count('visitor-day', rows.length);
    yield* rows;
    if (d >= BIG_DAYS - 2) {
      const hours = new Map<string, ActivityHour>();
      for (const { first_seen, requests, bots, paths } of rows) {
        const hh = first_seen.slice(11, 13);
        const part = { id: hourId('site', hh), store: 'site', day, hour: `${day}T${hh}:00:00.000Z`, requests, bots, self: 0, paths };
        hours.set(hh, withHour(hours.get(hh) ?? null, part, watermark));
      }
      count('activity-hour', hours.size);
      yield* hours.values();
    }
    count('day-rollup');
    const changes = rows.map((row) => ({ before: [], after: [row] }));
    yield { ...moved(emptyRollup(day, null), changes, { steps, goals: [] }), folded_to: watermark };
  }
  for (let v = 0; v < BIG_VISITORS; v += 1) {
    count('visitor-record');
    yield visitorRecord(hex(v), addDays(today, Math.floor(v / perDay) - BIG_DAYS), v % 10 === 9);
  }
  count('summaries');
  yield visitorsSummaryOf(people, scanners);
  const byDay = countedAgain({}, Object.entries(visits));
  count('summaries');
  yield { ...emptyVisits(), all_time: byDay.total, from: byDay.first, by_day: byDay.byDay };
  count('fold-state');
  yield {
    id: 'fold-state',
    pk: VISITORS_PK,
    kind: 'fold-state',
    days: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [addDays(today, i - 8), watermark])),
    records: watermark,
    records_at: `${today}T11:59:00.000Z`,
    swept_at: `${today}T11:59:00.000Z`,
    visits_due: [],
    rollups_from: '0000-00-00',
    build: null,
    behind: null,
  };
}

async function bigCard(azurite: Azurite, cosmosEndpoint: string, proxy: StoreProxy): Promise<void> {
  const { container } = await freshLocalStore(cosmosEndpoint, { prefix: 'readsbig' });
  const today = new Date().toISOString().slice(0, 10);
  const counts: Record<string, number> = {};
  const loading = performance.now();
  const created = await bulkUpsert(container, bigFixture(today, Math.floor(Date.now() / 1000), counts));
  const seconds = (performance.now() - loading) / 1000;
  const kinds = Object.entries(counts).map(([kind, n]) => `${fmt(n)} ${kind}`);
  console.log(
    `${fmt(BIG_VISITORS)}-record fixture written straight into the container: ${fmt(created)} documents in ${fmt(seconds)} s (${kinds.join(', ')})`,
  );
  const clock = benchClock(`${today}T12:00:00Z`);
  const { host } = await startHost(azurite, proxy.endpoint, container.database.id, clock);
  try {
    // The SDK's metadata calls are made by a first read, not measured.
    await measure(host.url, 'warm-up', '/api/pulse', proxy);
    for (const attempt of ['first', 'second']) {
      const read = await measure(host.url, 'card', '/api/admin/activity?days=400', proxy);
      console.log(
        `400-day card at ${fmt(BIG_VISITORS)} visitor records (${fmt(BIG_VISITORS)} visitor-days over ${BIG_DAYS} days, written as an older version ` +
          `kept them: day rollups and no month rollups, so its months are read day by day), ${attempt} read, ` +
          `GET /api/admin/activity?days=400 through the local host: ${fmt(read.ms / 1000, 2)} s, status ${read.status}, ${costText(read.cost)}`,
      );
    }
  } finally {
    await host.stop();
  }
}

const LONG_YEARS = Number(process.env.READS_YEARS ?? 5);
const LONG_PEOPLE = 2;

/** A server log's requests for every day of `years` before `today`: LONG_PEOPLE people a day, a page each. */
function historyHits(today: string, years: number) {
  const first = addDays(today, -Math.round(years * 365.25));
  const hits = [];
  for (let day = first, d = 0; day < today; day = addDays(day, 1), d += 1)
    for (let p = 0; p < LONG_PEOPLE; p += 1)
      hits.push({
        at: `${day}T${String(10 + p).padStart(2, '0')}:00:00Z`,
        address: personAddress(d * LONG_PEOPLE + p),
        user_agent: AGENTS[p % AGENTS.length]!,
        path: p === 0 ? '/' : '/resume',
        status: 200,
      });
  return { first, hits };
}

/** The days a card answered, as a line says them. */
function periodOf(body: string): string {
  const card = JSON.parse(body) as Partial<Pick<PeriodReportAnswer, 'from' | 'to' | 'days' | 'clamped'>>;
  if (card.days === undefined) return '';
  const clamped = card.clamped === undefined ? '' : `, clamped from ${card.clamped.asked_from} to ${card.clamped.asked_to}`;
  return `, answered ${card.from} to ${card.to} (${fmt(card.days ?? 0)} days${clamped})`;
}

/** `days=all`, a 10-year range and the widest ranges, with and without a filter, over years imported through POST /api/import and folded. */
async function longRanges(azurite: Azurite, cosmosEndpoint: string, proxy: StoreProxy): Promise<void> {
  const { container } = await freshLocalStore(cosmosEndpoint, { prefix: 'readslong' });
  const today = new Date().toISOString().slice(0, 10);
  const clock = benchClock(`${today}T12:00:00Z`);
  const { host, logger } = await startHost(azurite, proxy.endpoint, container.database.id, clock);
  const began = performance.now();
  try {
    const { first, hits } = historyHits(today, LONG_YEARS);
    await postHits(host.url, bodiesOf(hits, 1_000), 1, '/api/import');
    await host.drain(600_000);
    const runs = await foldUntilCaughtUp(host, logger, clock);
    console.log(
      `long ranges: ${fmt(hits.length)} requests of ${LONG_YEARS} years (${first} to ${addDays(today, -1)}, ${LONG_PEOPLE} people a day) ` +
        `imported through POST /api/import and folded (${runs} fold runs, ${fmt((performance.now() - began) / 1000)} s)`,
    );
    const tenYears = `from=${addDays(today, -3652)}&to=${today}`;
    const reads: Array<[string, string]> = [
      [`GET /api/admin/activity?days=all (${LONG_YEARS} years kept)`, '/api/admin/activity?days=all'],
      ['GET /api/admin/activity, a 10-year range', `/api/admin/activity?${tenYears}`],
      [
        'GET /api/admin/activity, the widest range (from=0001-01-01&to=9999-12-31, clamped)',
        '/api/admin/activity?from=0001-01-01&to=9999-12-31',
      ],
      ['GET /api/admin/activity, from=1000-01-01 to today (clamped)', `/api/admin/activity?from=1000-01-01&to=${today}`],
      ['GET /api/admin/activity, a 10-year range, one filter (page:/resume)', `/api/admin/activity?${tenYears}&filter=page:/resume`],
      [
        `GET /api/admin/activity?days=all (${LONG_YEARS} years), one filter (page:/resume)`,
        '/api/admin/activity?days=all&filter=page:/resume',
      ],
      [`GET /api/admin/retention?months=36 (${LONG_YEARS} years kept)`, '/api/admin/retention?months=36'],
    ];
    await measure(host.url, 'warm-up', '/api/pulse', proxy);
    for (const [name, path] of reads) {
      await measure(host.url, name, path, proxy);
      const read = await measure(host.url, name, path, proxy);
      console.log(`${name}: ${fmt(read.ms)} ms, status ${read.status}, ${costText(read.cost)}${periodOf(read.body)}`);
    }
  } finally {
    await host.stop();
  }
}

export async function run(): Promise<void> {
  const began = performance.now();
  await withServices([azuriteWithBlobs(), startCosmos()], (azurite, cosmos) =>
    withServices([storeProxyTo(cosmos.endpoint)], async (proxy) => {
      console.log(
        `each read asked once to warm up, then once measured, through HTTP at a local host whose Cosmos endpoint is a proxy in front of the local Cosmos server; ` +
          `KB = response bodies the store answered; RU estimated from them by the benches' one rule (bench/store-calls.ts): a point read 1 RU a KB ` +
          `(at least 1; a 404 is 1 RU), a query page 2.5 RU + 1 RU a KB it returns, the SDK's metadata and query-plan calls 1 RU each`,
      );
      console.log(
        `traffic: ${DAYS_POSTED} days posted to POST /api/hits (x-ingest-key, 50 hits a request), V = ${V} people a day (${NEW_SHARE * 100} % new each day, ` +
          `1 to 4 pages each, one hit a page, browser agents, addresses in 10.0.0.0/8) and ${SCANNER_SHARE * V} scanners a day (2 hits each, 172.16.0.0/12); ` +
          `kept by the queue trigger (host.drain()), folded by the fold after each day until caught up; then 4V = ${fmt(4 * V)} a day on a fresh database`,
      );
      console.log(
        `events: the people also post events with props as hits (event, props, not page loads, after their pages): one in six signup {plan: pro|free}, ` +
          `one in four download {path: one of ${FILES.length} files}, one in five outbound {host: one of ${OUTBOUND_HOSTS.length} hosts}; ` +
          `the host has GOALS=${GOALS}`,
      );
      const scales: Scale[] = [];
      for (const people of [V, 4 * V]) {
        const scale = await atScale(people, azurite, cosmos.endpoint, proxy);
        console.log(
          `  ${people === V ? 'V' : '4V'} (${fmt(people)} people a day): ${fmt(scale.posted)} hits posted (${fmt(scale.events)} of them events), ` +
            `${scale.foldRuns} fold runs, ${fmt(scale.seconds)} s`,
        );
        scales.push(scale);
      }
      const [small, large] = scales as [Scale, Scale];
      for (const [i, read] of small.measured.entries()) console.log(`${read.name}: ${atBoth(read, large.measured[i]!)}`);
      goalsAndEventsLines(small, large);
      const rollupKb = (scale: Scale) => {
        const reads = scale.measured
          .flatMap((read) => read.calls)
          .filter((call) => call.kind === 'point read' && call.id === 'day-rollup' && call.status === 200);
        return reads.reduce((sum, call) => sum + call.responseBytes, 0) / 1024 / Math.max(1, reads.length);
      };
      console.log(
        `a day's rollup read: V ${fmt(rollupKb(small), 1)} KB, 4V ${fmt(rollupKb(large), 1)} KB (its people sketch ${fmt(large.rollup.sketchKb, 1)} KB at any traffic)`,
      );
      // READS_SCALES_ONLY=1 stops after V and 4V.
      if (process.env.READS_SCALES_ONLY === '1') return;
      await bigCard(azurite, cosmos.endpoint, proxy);
      await longRanges(azurite, cosmos.endpoint, proxy);
    }),
  );
  console.log(`reads bench took ${fmt((performance.now() - began) / 1000)} s`);
}
