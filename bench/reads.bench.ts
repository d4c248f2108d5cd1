import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Container } from '@azure/cosmos';
import { rootFromEnvironment } from '../host/composition';
import { startLocalHost, type LocalHost } from '../host/local/host';
import { startAzurite, startCosmos, type Azurite } from '../host/local/services';
import { funnelStepsSetting } from '../shared/activity/funnel';
import { addDays } from '../shared/counting/days';
import { countedAgain } from '../shared/folding/by-day';
import { memoryLogger } from '../shared/ports/logger';
import type { ActivityHour, VisitorDay, VisitsSummary } from '../shared/store';
import { hourId, visitorDayId } from '../shared/store/activity';
import { VISITORS_PK } from '../shared/store/visitors';
import { VISITS_SUMMARY_ID } from '../shared/store/visits';
import { hex } from './ids';
import { bulkUpsert, freshLocalStore, visitorsSummaryOf } from './local-store';
import { visitorRecord } from '../test/support/counting-cosmos';
import { postHits } from './post-hits';
import { fmt } from './report';
import { KEYS, hostSettings } from './settings';
import { costOf, estimatedRu, storeProxyTo, type Cost, type StoreCall, type StoreProxy } from './store-calls';

/**
 * `npm run bench reads`: what every Admin read costs the store at V and 4V visitors a day, measured through HTTP at a
 * proxy in front of the local Cosmos server. Eight days of a site's server traffic are posted to POST /api/hits (one
 * hit a person a page), kept by the queue trigger and folded by the fold's timer (run until it says it is caught
 * up), then each read is asked once to warm up and once measured. The traffic and the reads speak only HTTP to the
 * app, so the same file measures an older commit: that is how the "before" lines are printed. The last part writes
 * 100,000 visitor records and visitor-days over 400 days straight into the container and reads the 400-day card
 * through the same kind of host.
 *
 * The people also send events with props (`signup`, `download`, `outbound`, posted as hits with `event` and `props`),
 * and the host has GOALS, so the card's `goals` and `events` are full and their line measures them; `READS_EVENTS=0`
 * posts the traffic without them and sets no GOALS, for a commit whose POST /api/hits refuses or ignores `event`.
 */

/** People a day at V; `READS_V` sets another (a quick try). */
const V = Number(process.env.READS_V ?? 300);
const DAYS_POSTED = 8;
/** Each day, this share of the day's people are new; the rest came on an earlier day. */
const NEW_SHARE = 0.6;
/** Scanners a day, beside the people, as a share of V (they are kept as visitor-days too). */
const SCANNER_SHARE = 0.1;
const PROJECTED = 10_000;
/** Visitor records of the last part; `READS_BIG` sets another (a multiple of 400). */
const BIG_VISITORS = Number(process.env.READS_BIG ?? 100_000);
const BIG_DAYS = 400;
/** Whether the people send events and the host has GOALS; `READS_EVENTS=0` posts pages and scanners only. */
const EVENTS = process.env.READS_EVENTS !== '0';
/** The goals the host is given (the form of FUNNEL_STEPS): two events and a path every third person or so requests. */
const GOALS = 'signup=event:signup|cv=event:download|resume=path:/resume';
const GOAL_NAMES = ['signup', 'cv', 'resume'];
const EVENT_NAMES = ['signup', 'download', 'outbound'];
const FILES = ['cv.pdf', 'slides.pdf', 'talk.pdf', 'dataset.zip', 'notes.pdf', 'code.zip'];
const OUTBOUND_HOSTS = ['github.com', 'www.linkedin.com', 'gitlab.com', 'dev.to', 'mastodon.social'];
/**
 * The most a rollup's lists can weigh, in KB: fifteen lists of at most 100 names (ROLLUP_TOP), about 40 bytes a name.
 * Its sketch weighs the same 16 KB at any traffic (one character a register), so a rollup grows only until its lists
 * are full.
 */
const FULL_LISTS_KB = (15 * 100 * 40) / 1024;

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
];
const SCANNER_AGENTS = ['Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', 'python-requests/2.32.3', 'curl/8.5.0'];
const REFERRERS = [
  'https://github.com/someone/dotfiles',
  'https://www.linkedin.com/',
  'https://www.google.com/',
  'https://news.ycombinator.com/',
];

/** A clock that runs from where it is set, so a fold's budget by time still passes, and can be moved on. */
function benchClock(start: string) {
  let base = Date.parse(start);
  let setAt = performance.now();
  return {
    now: () => new Date(base + (performance.now() - setAt)),
    set(at: string) {
      base = Date.parse(at);
      setAt = performance.now();
    },
    advance(ms: number) {
      base += ms;
    },
  };
}

/** A visitor's address: private ranges, never loopback (loopback is the site's own read). */
const personAddress = (p: number) => `10.${1 + ((p >> 16) & 127)}.${(p >> 8) & 255}.${p & 255}`;
const scannerAddress = (s: number) => `172.${16 + ((s >> 16) & 15)}.${(s >> 8) & 255}.${s & 255}`;

interface ServerHit {
  at: string;
  address: string;
  user_agent: string;
  path: string;
  referrer?: string;
  page_load: boolean;
  event?: string;
  props?: Record<string, string>;
}

/**
 * The events person `p` sends on a day, on the page they are on, when EVENTS: one in six signs up (`plan` pro or free),
 * one in four downloads a file (`path`, as the snippet's `data-downloads` sends it), one in five follows a link out
 * (`host`, as `data-outbound` does); so about 62 events a day for every hundred people.
 */
function eventsOf(p: number): Array<{ event: string; props: Record<string, string> }> {
  if (!EVENTS) return [];
  const events: Array<{ event: string; props: Record<string, string> }> = [];
  if (p % 6 === 0) events.push({ event: 'signup', props: { plan: p % 18 === 0 ? 'pro' : 'free' } });
  if (p % 4 === 1) events.push({ event: 'download', props: { path: `/files/${FILES[Math.floor(p / 4) % FILES.length]!}` } });
  if (p % 5 === 2) events.push({ event: 'outbound', props: { host: OUTBOUND_HOSTS[Math.floor(p / 5) % OUTBOUND_HOSTS.length]! } });
  return events;
}

/** One day's hits as the site's server reports them: `people` people (from person `first` on), one hit a page, and the scanners. */
function dayHits(day: string, d: number, first: number, people: number, scanners: number): ServerHit[] {
  const start = Date.parse(`${day}T00:00:00Z`);
  const hits: ServerHit[] = [];
  for (let n = 0; n < people; n += 1) {
    const p = first + n;
    const at = start + Math.floor((n / people) * 23 * 3_600_000);
    const pages = ['/', '/about', '/resume', `/blog/post-${(p * 7) % 40}`, `/projects/${p % 25}`].slice(
      0,
      1 + ((p * 3 + day.charCodeAt(9)) % 4),
    );
    if (p % 13 === 0) pages[0] = '/?utm_source=newsletter&utm_medium=email&utm_campaign=launch';
    pages.forEach((path, i) => {
      const referrer = i === 0 && p % 10 < REFERRERS.length ? REFERRERS[p % 10] : undefined;
      hits.push({
        at: new Date(at + i * 45_000).toISOString(),
        address: personAddress(p),
        user_agent: AGENTS[p % AGENTS.length]!,
        path,
        ...(referrer ? { referrer } : {}),
        page_load: true,
      });
    });
    eventsOf(p).forEach(({ event, props }, i) =>
      hits.push({
        at: new Date(at + (pages.length + i) * 45_000).toISOString(),
        address: personAddress(p),
        user_agent: AGENTS[p % AGENTS.length]!,
        path: pages[pages.length - 1]!.split('?')[0]!,
        page_load: false,
        event,
        props,
      }),
    );
  }
  for (let s = 0; s < scanners; s += 1) {
    const at = start + Math.floor((s / scanners) * 23 * 3_600_000) + 600_000;
    for (const [i, path] of ['/wp-login.php', '/.env'].entries())
      hits.push({
        at: new Date(at + i * 1_000).toISOString(),
        address: scannerAddress(d * 10_000 + s),
        user_agent: SCANNER_AGENTS[s % SCANNER_AGENTS.length]!,
        path,
        page_load: false,
      });
  }
  return hits;
}

/** The hits in requests of 50, as the site's server reports them. */
const bodiesOf = (hits: readonly ServerHit[]) =>
  Array.from({ length: Math.ceil(hits.length / 50) }, (_, i) => JSON.stringify({ hits: hits.slice(i * 50, i * 50 + 50) }));

/** The fold run until it says it is caught up (its own log lines: no "behind", no failure); answers the runs taken. */
async function foldUntilCaughtUp(host: LocalHost, logger: { lines: string[] }, clock: ReturnType<typeof benchClock>): Promise<number> {
  // Past FOLD_SETTLE_SECONDS (1) and the store clock's second: every write so far is in the fold's reach.
  await sleep(2_200);
  for (let run = 1; run <= 200; run += 1) {
    logger.lines.length = 0;
    await host.run('recount');
    if (!logger.lines.some((line) => /the fold is behind|could not start|did not finish|another fold is running/.test(line))) return run;
    clock.advance(60_000);
  }
  throw new Error('the fold did not catch up in 200 runs');
}

interface Measured {
  name: string;
  calls: StoreCall[];
  cost: Cost;
  ms: number;
  status: number;
  answerKb: number;
}

/** A host on its own queue and a fresh database, its store calls through the proxy. */
async function startHost(azurite: Azurite, proxyEndpoint: string, database: string, clock: ReturnType<typeof benchClock>) {
  // Its logger keeps the lines, so the bench can tell from the fold's own words whether it caught up.
  const logger = memoryLogger();
  const env = hostSettings(azurite.connectionString, proxyEndpoint, 'reads', { COSMOS_DATABASE: database, ...(EVENTS ? { GOALS } : {}) });
  const root = rootFromEnvironment(env, { clock, logger });
  const host = await startLocalHost({ root, port: 0, timers: false });
  return { host, logger };
}

async function measure(url: string, name: string, path: string, proxy: StoreProxy): Promise<Measured> {
  proxy.take();
  const started = performance.now();
  const answer = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${KEYS.OPERATOR_KEY}` } });
  const body = await answer.arrayBuffer();
  const ms = performance.now() - started;
  const calls = proxy.take();
  return { name, calls, cost: costOf(calls), ms, status: answer.status, answerKb: body.byteLength / 1024 };
}

/** The card's goals and events, as it answers them. */
interface GoalsAndEvents {
  goals: Array<{ goal: string; conversions: number; people_all_time: number }>;
  events: Array<{ event: string; count: number; visitor_days: number; props: Record<string, Array<{ value: string; count: number }>> }>;
}

/**
 * The 30-day card's goals and events once folded, read out of band (before the reads are measured). Throws unless every
 * goal has conversions and people all time and every event is there with its props: else their line would measure
 * empty lists.
 */
async function goalsAndEvents(url: string): Promise<GoalsAndEvents> {
  const answer = await fetch(`${url}/api/admin/activity?days=30`, { headers: { authorization: `Bearer ${KEYS.OPERATOR_KEY}` } });
  const text = await answer.text();
  const body = (answer.status === 200 ? JSON.parse(text) : {}) as Partial<GoalsAndEvents>;
  const goals = body.goals ?? [];
  const events = body.events ?? [];
  const lacking = [
    ...GOAL_NAMES.filter((name) => !goals.some((row) => row.goal === name && row.conversions > 0 && row.people_all_time > 0)).map(
      (name) => `goal ${name}`,
    ),
    ...EVENT_NAMES.filter((name) => !events.some((row) => row.event === name && row.count > 0 && Object.keys(row.props).length > 0)).map(
      (name) => `event ${name}`,
    ),
  ];
  if (lacking.length > 0)
    throw new Error(
      `the card's goals and events are not all there after the fold (lacking ${lacking.join(', ')}; GET /api/admin/activity?days=30 answered ` +
        `${answer.status}): ${answer.status === 200 ? JSON.stringify({ goals, events }) : text.slice(0, 500)}`,
    );
  return { goals, events };
}

const goalsAndEventsText = (card: GoalsAndEvents) =>
  `goals ${card.goals.map((row) => `${row.goal} ${fmt(row.conversions)} conversions, ${fmt(row.people_all_time)} people all time`).join('; ')}; ` +
  `events ${card.events
    .map(
      (row) =>
        `${row.event} ${fmt(row.count)} (${fmt(row.visitor_days)} visitor-days; ` +
        `${Object.entries(row.props)
          .map(([key, values]) => `${key}: ${values.length} values`)
          .join(', ')})`,
    )
    .join(', ')}`;

interface Scale {
  people: number;
  measured: Measured[];
  /**
   * A full day's rollup, read out of band (not through the proxy) when the app keeps rollups: its KB, its sketch's, and
   * its events' and goals' lists'.
   */
  rollup: { kb: number; sketchKb: number; eventsKb: number } | null;
  /** The card's goals and events once folded, when EVENTS. */
  card: GoalsAndEvents | null;
  posted: number;
  events: number;
  foldRuns: number;
  seconds: number;
}

/** Eight days of traffic at `people` a day on a fresh database, folded, then every read measured. */
async function atScale(people: number, azurite: Azurite, cosmosEndpoint: string, proxy: StoreProxy): Promise<Scale> {
  const began = performance.now();
  const { container } = await freshLocalStore(cosmosEndpoint, { prefix: `reads${people}` });
  const today = new Date().toISOString().slice(0, 10);
  const firstDay = addDays(today, -DAYS_POSTED);
  const clock = benchClock(`${firstDay}T23:10:00Z`);
  const { host, logger } = await startHost(azurite, proxy.endpoint, container.database.id, clock);
  let posted = 0;
  let events = 0;
  let foldRuns = 0;
  try {
    for (let d = 0; d < DAYS_POSTED; d += 1) {
      const day = addDays(firstDay, d);
      clock.set(`${day}T23:10:00Z`);
      const hits = dayHits(day, d, Math.floor(d * NEW_SHARE * people), people, Math.round(people * SCANNER_SHARE));
      await postHits(host.url, bodiesOf(hits));
      posted += hits.length;
      events += hits.filter((hit) => hit.event !== undefined).length;
      await host.drain(300_000);
      foldRuns += await foldUntilCaughtUp(host, logger, clock);
    }
    // The reads are made the next day at noon, after the timer's run of that minute.
    clock.set(`${today}T12:00:00Z`);
    foldRuns += await foldUntilCaughtUp(host, logger, clock);
    const card = EVENTS ? await goalsAndEvents(host.url) : null;
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
      ['GET /api/admin/export (30 days, one filter)', `/api/admin/export?from=${addDays(today, -29)}&to=${today}&filter=page:/resume`],
      ['GET /api/admin/retention?months=12', '/api/admin/retention?months=12'],
      ['GET /api/admin/retention?months=12, one filter (page:/resume)', '/api/admin/retention?months=12&filter=page:/resume'],
    ];
    for (const [name, path] of reads) await measure(host.url, name, path, proxy);
    const measured: Measured[] = [];
    for (const [name, path] of reads) measured.push(await measure(host.url, name, path, proxy));
    if (process.env.READS_CALLS === '1')
      for (const read of measured)
        console.log(
          `  ${people} a day, ${read.name}: ${read.calls.map((call) => `${call.kind} ${call.pk ?? '-'}/${call.id ?? '-'} ${call.status} ${call.responseBytes} B`).join('; ')}`,
        );
    const bad = measured.filter((read) => read.status !== 200);
    if (bad.length > 0) console.log(`  (answers not 200: ${bad.map((read) => `${read.name} ${read.status}`).join(', ')})`);
    const rollup = await rollupOf(container, fullDay);
    return { people, measured, rollup, card, posted, events, foldRuns, seconds: (performance.now() - began) / 1000 };
  } finally {
    await host.stop();
  }
}

/** A day's rollup read straight from the container, for the projection; null when the app keeps none (an older commit). */
async function rollupOf(container: Container, day: string): Promise<Scale['rollup']> {
  const { resource } = await container.item('day-rollup', day).read<Record<string, unknown>>();
  if (!resource) return null;
  const kbOf = (value: unknown) => JSON.stringify(value ?? {}).length / 1024;
  return {
    kb: kbOf(resource),
    sketchKb: kbOf(resource.people_sketch),
    eventsKb: kbOf({ events: resource.events, event_days: resource.event_days, event_props: resource.event_props, goals: resource.goals }),
  };
}

const rollupReads = (read: Measured) => read.calls.filter((call) => call.kind === 'point read' && call.id === 'day-rollup');

/**
 * A card's cost at PROJECTED visitors every day, from what was measured. When the card reads day rollups, its calls do
 * not depend on the visitors (a point read a day asked), and each rollup read is taken at the size of a rollup of that
 * many people: the measured 4V rollup's sketch (the same at any traffic) and its lists grown in proportion to the
 * visitors, up to their caps (FULL_LISTS_KB). When it reads visitor-days, its cost is taken as a fixed part plus a part
 * proportional to the visitor-days of the window: the slope from V to 4V over the eight days posted, carried to
 * PROJECTED a day on every day of the window.
 */
/** A day's rollup at PROJECTED visitors, from the 4V one: its sketch as it is, its lists in proportion up to their caps. */
const projectedRollupKb = (rollup: { kb: number; sketchKb: number }) =>
  rollup.sketchKb + Math.min(((rollup.kb - rollup.sketchKb) * PROJECTED) / (4 * V), FULL_LISTS_KB);

function projected(small: Measured, large: Measured, windowDays: number, rollup: Scale['rollup']): Cost & { how: string } {
  const reads = rollupReads(large);
  if (reads.length > 0 && rollup !== null) {
    const rollupKb = projectedRollupKb(rollup);
    const measuredKb = reads.reduce((sum, call) => sum + call.responseBytes, 0) / 1024;
    const measuredRu = reads.reduce((sum, call) => sum + estimatedRu(call), 0);
    return {
      calls: large.cost.calls,
      kb: large.cost.kb - measuredKb + reads.length * rollupKb,
      ru: large.cost.ru - measuredRu + reads.length * Math.max(1, Math.ceil(rollupKb)),
      how: `${reads.length} rollup point reads of ~${fmt(rollupKb, 1)} KB each`,
    };
  }
  const scale = (PROJECTED * windowDays - V * DAYS_POSTED) / (3 * V * DAYS_POSTED);
  const at = (pick: (cost: Cost) => number) => pick(small.cost) + (pick(large.cost) - pick(small.cost)) * scale;
  return {
    calls: at((c) => c.calls),
    kb: at((c) => c.kb),
    ru: at((c) => c.ru),
    how: `visitor-days of ${windowDays} days, linear from V and 4V`,
  };
}

const costText = (cost: Cost) => `${fmt(cost.calls)} calls ${fmt(cost.kb, 1)} KB ~${fmt(cost.ru)} RU`;

/**
 * The line of the card's goals and events: the 30-day card's read as measured (no read answers them alone: the card is
 * the read that carries them, beside its other figures), then what of it is theirs: the goals' summaries (a point read
 * each) and the events' and goals' lists in a day's rollup.
 */
function goalsAndEventsLines(small: Scale, large: Scale): void {
  const [read, big] = [small.measured[2]!, large.measured[2]!];
  const growth = read.cost.kb > 0 ? big.cost.kb / read.cost.kb : Number.NaN;
  console.log(
    `the card's goals and events (${GOAL_NAMES.length} goals, ${EVENT_NAMES.length} events with props), ${read.name}, the read that carries them ` +
      `with the card's other figures: V ${costText(read.cost)} | 4V ${costText(big.cost)} | growth ×${fmt(growth, 2)}`,
  );
  const summaries = (measured: Measured) => {
    const calls = measured.calls.filter(
      (call) => call.kind === 'point read' && decodeURIComponent(call.id ?? '').startsWith('goal-summary:'),
    );
    return costOf(calls);
  };
  const [own, ownBig] = [summaries(read), summaries(big)];
  const lists =
    small.rollup && large.rollup
      ? `; a day's rollup's events and goals lists: V ${fmt(small.rollup.eventsKb, 1)} KB | 4V ${fmt(large.rollup.eventsKb, 1)} KB ` +
        `(of ${fmt(small.rollup.kb, 1)} and ${fmt(large.rollup.kb, 1)} KB)`
      : '';
  console.log(`  of it, the goals' summaries (a point read a goal): V ${costText(own)} | 4V ${costText(ownBig)}${lists}`);
}

type RollupModule = typeof import('../shared/rollup/day-rollup');
type SketchModule = typeof import('../shared/rollup/sketch');

/**
 * The modules that make day rollups, when this commit has them (an older commit keeps none: its card reads the
 * visitor-days, so the fixture is the same without them).
 */
async function rollupModules(): Promise<{ rollup: RollupModule; sketch: SketchModule } | null> {
  if (!existsSync(join(__dirname, '..', 'shared', 'rollup', 'day-rollup.ts'))) return null;
  return { rollup: await import('../shared/rollup/day-rollup'), sketch: await import('../shared/rollup/sketch') };
}

/**
 * 100,000 visitors over 400 days (250 a day, each seen once: a record and a visitor-day each, one in ten a scanner),
 * the summaries, the last two days' hours, each day's rollup when the app keeps them, and a fold state that says every
 * rollup is built (rollups_from '0000-00-00', build null).
 */
function* bigFixture(today: string, mark: number, modules: Awaited<ReturnType<typeof rollupModules>>, counts: Record<string, number>) {
  const steps = funnelStepsSetting.parse(undefined);
  const count = (kind: string) => (counts[kind] = (counts[kind] ?? 0) + 1);
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
      const token = hex(0x5000000 + v);
      const paths: Record<string, number> = scanner ? { '/wp-login.php': 2 } : { '/': 1, '/about': 1, [`/blog/post-${v % 40}`]: 1 };
      rows.push({
        id: visitorDayId('site', token),
        pk: day,
        kind: 'visitor-day',
        store: 'site',
        day,
        token,
        network: `10.${(v >> 16) & 255}.${(v >> 8) & 255}.x`,
        first_seen: `${day}T${hour}:00:00.000Z`,
        last_seen: `${day}T${hour}:02:00.000Z`,
        requests: scanner ? 2 : 3,
        bots: scanner ? 2 : 0,
        self: 0,
        paths,
        sources: !scanner && v % 7 === 0 ? { 'github.com': 1 } : {},
        page_loads: scanner ? 0 : 3,
        visit: !scanner,
        country: ['DE', 'US', 'GB', 'FR', 'NL'][v % 5]!,
        browsers: { [['chrome', 'safari', 'firefox'][v % 3]!]: scanner ? 2 : 3 },
        systems: { [['windows', 'macos', 'ios', 'android'][v % 4]!]: scanner ? 2 : 3 },
        devices: { [v % 3 === 0 ? 'mobile' : 'desktop']: scanner ? 2 : 3 },
        campaigns: {},
        ...(scanner ? {} : { page_paths: paths, entry: '/', entry_at: `${day}T${hour}:00:00.000Z` }),
        ...(modules && !scanner ? { people_sketch: modules.sketch.sketchOf([hex(v)]) } : {}),
        folded_to: mark,
      });
      (scanner ? scanners : people)[day] = ((scanner ? scanners : people)[day] ?? 0) + 1;
    }
    visits[day] = rows.filter((row) => row.visit).length;
    for (const row of rows) {
      count('visitor-day');
      yield row;
    }
    if (d >= BIG_DAYS - 2) {
      const hours = new Map<string, ActivityHour>();
      for (const row of rows) {
        const hh = row.first_seen.slice(11, 13);
        const hour = hours.get(hh) ?? {
          id: hourId('site', hh),
          pk: day,
          kind: 'activity-hour',
          store: 'site',
          day,
          hour: `${day}T${hh}:00:00.000Z`,
          requests: 0,
          bots: 0,
          self: 0,
          paths: {},
          folded_to: mark,
        };
        hour.requests += row.requests;
        hour.bots += row.bots;
        for (const [path, n] of Object.entries(row.paths)) hour.paths[path] = (hour.paths[path] ?? 0) + n;
        hours.set(hh, hour);
      }
      for (const hour of hours.values()) {
        count('activity-hour');
        yield hour;
      }
    }
    if (modules) {
      const { moved, emptyRollup } = modules.rollup;
      count('day-rollup');
      yield {
        ...moved(
          emptyRollup(day, null),
          rows.map((row) => ({ before: [], after: [row] })),
          { steps, goals: [] },
        ),
        folded_to: mark,
      };
    }
  }
  for (let v = 0; v < BIG_VISITORS; v += 1) {
    const day = addDays(today, Math.floor(v / perDay) - BIG_DAYS);
    const scanner = v % 10 === 9;
    count('visitor-record');
    yield visitorRecord(hex(v), day, scanner);
  }
  count('summaries');
  yield visitorsSummaryOf(people, scanners);
  const byDay = countedAgain({}, Object.entries(visits));
  count('summaries');
  yield {
    id: VISITS_SUMMARY_ID,
    pk: VISITORS_PK,
    kind: 'visits-summary',
    all_time: byDay.total,
    from: byDay.first,
    by_day: byDay.byDay,
  } satisfies VisitsSummary;
  count('fold-state');
  yield {
    id: 'fold-state',
    pk: VISITORS_PK,
    kind: 'fold-state',
    days: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [addDays(today, i - 8), mark])),
    records: mark,
    records_at: `${today}T11:59:00.000Z`,
    swept_at: `${today}T11:59:00.000Z`,
    visits_due: [],
    rollups_from: '0000-00-00',
    build: null,
    behind: null,
  };
}

/** The 400-day card read through a host at 100,000 visitor records. */
async function bigCard(azurite: Azurite, cosmosEndpoint: string, proxy: StoreProxy): Promise<void> {
  const modules = await rollupModules();
  const { container } = await freshLocalStore(cosmosEndpoint, { prefix: 'readsbig' });
  const today = new Date().toISOString().slice(0, 10);
  const counts: Record<string, number> = {};
  const loading = performance.now();
  const created = await bulkUpsert(container, bigFixture(today, Math.floor(Date.now() / 1000), modules, counts));
  console.log(
    `${fmt(BIG_VISITORS)}-record fixture written straight into the container: ${fmt(created)} documents in ${fmt((performance.now() - loading) / 1000)} s (${Object.entries(
      counts,
    )
      .map(([kind, n]) => `${fmt(n)} ${kind}`)
      .join(', ')})${modules ? '' : '; this commit keeps no day rollups, so none were written'}`,
  );
  const clock = benchClock(`${today}T12:00:00Z`);
  const { host } = await startHost(azurite, proxy.endpoint, container.database.id, clock);
  try {
    // The SDK's metadata calls are made once, by a first read that is not measured.
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

/** Years of imported history the long ranges read, and the people a day it holds. */
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

/**
 * `days=all` over years of kept days and a 10-year range, with and without one filter: the history imported through
 * POST /api/import (as `npm run import` sends a log) and folded by the fold, then each read measured as above.
 */
async function longRanges(azurite: Azurite, cosmosEndpoint: string, proxy: StoreProxy): Promise<void> {
  const { container } = await freshLocalStore(cosmosEndpoint, { prefix: 'readslong' });
  const today = new Date().toISOString().slice(0, 10);
  const clock = benchClock(`${today}T12:00:00Z`);
  const { host, logger } = await startHost(azurite, proxy.endpoint, container.database.id, clock);
  const began = performance.now();
  try {
    const { first, hits } = historyHits(today, LONG_YEARS);
    for (let at = 0; at < hits.length; at += 1_000) {
      const answer = await fetch(`${host.url}/api/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ingest-key': KEYS.INGEST_KEY },
        body: JSON.stringify({ hits: hits.slice(at, at + 1_000) }),
      });
      if (answer.status !== 202) throw new Error(`POST /api/import answered ${answer.status}: ${await answer.text()}`);
    }
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
      console.log(`${name}: ${fmt(read.ms)} ms, status ${read.status}, ${costText(read.cost)}`);
    }
  } finally {
    await host.stop();
  }
}

export async function run(): Promise<void> {
  const began = performance.now();
  const [azurite, cosmos] = await Promise.all([startAzurite(), startCosmos()]);
  const proxy = await storeProxyTo(cosmos.endpoint);
  try {
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
      EVENTS
        ? `events: the people also post events with props as hits (event, props, not page loads, after their pages): one in six signup {plan: pro|free}, ` +
            `one in four download {path: one of ${FILES.length} files}, one in five outbound {host: one of ${OUTBOUND_HOSTS.length} hosts}; ` +
            `the host has GOALS=${GOALS}`
        : 'events: none posted and no GOALS (READS_EVENTS=0): the traffic of a commit whose POST /api/hits takes no event',
    );
    const scales: Scale[] = [];
    for (const people of [V, 4 * V]) {
      const scale = await atScale(people, azurite, cosmos.endpoint, proxy);
      console.log(
        `  ${people === V ? 'V' : '4V'} (${fmt(people)} people a day): ${fmt(scale.posted)} hits posted${EVENTS ? ` (${fmt(scale.events)} of them events)` : ''}, ` +
          `${scale.foldRuns} fold runs, ${fmt(scale.seconds)} s`,
      );
      if (scale.card) console.log(`  ${people === V ? 'V' : '4V'}, the 30-day card once folded: ${goalsAndEventsText(scale.card)}`);
      scales.push(scale);
    }
    const [small, large] = scales as [Scale, Scale];
    for (const [i, read] of small.measured.entries()) {
      const big = large.measured[i]!;
      const growth = read.cost.kb > 0 ? big.cost.kb / read.cost.kb : Number.NaN;
      console.log(`${read.name}: V ${costText(read.cost)} | 4V ${costText(big.cost)} | growth ×${fmt(growth, 2)}`);
    }
    if (small.card && large.card) goalsAndEventsLines(small, large);
    else console.log("no events were posted (READS_EVENTS=0): the card's goals and events are empty, and no line measures them");
    const rollupKb = (scale: Scale) => {
      const reads = scale.measured.flatMap((read) => rollupReads(read)).filter((call) => call.status === 200);
      return reads.length === 0 ? null : reads.reduce((sum, call) => sum + call.responseBytes, 0) / 1024 / reads.length;
    };
    const [kbSmall, kbLarge] = [rollupKb(small), rollupKb(large)];
    if (kbSmall !== null && kbLarge !== null && large.rollup !== null)
      console.log(
        `a day's rollup read: V ${fmt(kbSmall, 1)} KB, 4V ${fmt(kbLarge, 1)} KB (its people sketch ${fmt(large.rollup.sketchKb, 1)} KB at any traffic); ` +
          `at ${fmt(PROJECTED)} a day ~${fmt(projectedRollupKb(large.rollup), 1)} KB (its lists grown in proportion, at most ${fmt(FULL_LISTS_KB, 1)} KB when full)`,
      );
    else console.log('no day rollup is read by this commit: the cards read the visitor-days of their window');
    for (const [index, days] of [
      [2, 30],
      [3, 400],
    ] as const) {
      const cost = projected(small.measured[index]!, large.measured[index]!, days, large.rollup);
      console.log(`at ${fmt(PROJECTED)} visitors a day (projected), the ${days}-day card: ~${costText(cost)} (${cost.how})`);
    }
    await bigCard(azurite, cosmos.endpoint, proxy);
    await longRanges(azurite, cosmos.endpoint, proxy);
  } finally {
    await proxy.close();
    await Promise.all([cosmos.stop(), azurite.stop()]);
    console.log(`reads bench took ${fmt((performance.now() - began) / 1000)} s`);
  }
}
