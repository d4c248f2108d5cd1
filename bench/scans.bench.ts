import { performance } from 'node:perf_hooks';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckEngine } from '../adapters/day-files/duckdb';
import { addDays } from '../shared/core/days';
import { tokenRow } from '../shared/core/rollup/day-columns';
import type { Filter } from '../shared/core/rollup/filters';
import { addPerson } from '../shared/core/sketch';
import { visitorDayId, type VisitorDay } from '../shared/core/store/activity';
import { partsOf } from '../shared/read/activity/window';
import { periodOf } from '../shared/read/activity/period';
import { fmt } from './report';

/** `npm run bench scans`: the spike of issue 56, a columnar copy (one Parquet file a day, DuckDB) beside pushing the question into Cosmos DB, at SCANS_V people a day over 30 days. */
const V = Number(process.env.SCANS_V ?? 2_000);
const DAYS = 30;
const RULES = { steps: [], goals: [] };
const PAGES = ['/', '/about', '/resume', ...Array.from({ length: 40 }, (_, i) => `/blog/post-${i}`)];
const HOSTS = ['www.linkedin.com', 'github.com', 'www.google.com', 'news.ycombinator.com', 'duckduckgo.com', 'reddit.com'];
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'IN', 'BR', 'NL', 'SE', 'JP', 'CA'];
const BROWSERS = ['chrome', 'safari', 'firefox', 'edge'];

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** Person `p` on day `d`: one to four pages, a linking host for four in ten, and an event for one in four. */
function visitorDayOf(day: string, p: number, firstDay: string): VisitorDay {
  const person = hash(`person${p}`);
  const count = 1 + ((p * 7 + day.charCodeAt(9)) % 4);
  const paths: Record<string, number> = {};
  for (let i = 0; i < count; i += 1) paths[PAGES[(p * 31 + i * 17 + day.charCodeAt(8)) % (i === 0 ? 3 : PAGES.length)]!] = 1;
  const host = p % 10 < 4 ? HOSTS[p % HOSTS.length]! : undefined;
  const token = hash(`${day}|${p}`);
  const registers = addPerson({}, person);
  return {
    id: visitorDayId('site', token),
    pk: day,
    kind: 'visitor-day',
    store: 'site',
    day,
    token,
    network: `10.${p & 255}.${(p >> 8) & 255}.x`,
    first_seen: `${day}T10:00:00.000Z`,
    last_seen: `${day}T10:0${count}:00.000Z`,
    requests: count,
    bots: 0,
    self: 0,
    paths,
    sources: host ? { [host]: 1 } : {},
    page_loads: count,
    visit: true,
    country: COUNTRIES[p % COUNTRIES.length]!,
    browsers: { [BROWSERS[p % BROWSERS.length]!]: 1 },
    systems: { [p % 3 === 0 ? 'android' : 'windows']: 1 },
    devices: { [p % 3 === 0 ? 'mobile' : 'desktop']: 1 },
    page_paths: paths,
    entry: Object.keys(paths)[0]!,
    entry_at: `${day}T10:00:00.000Z`,
    ...(p % 4 === 1 ? { events: { download: 1 }, event_props: { 'download|path|/cv.pdf': 1 } } : {}),
    people_sketch: registers,
    ...(firstDay === day ? { new_sketch: registers } : {}),
    first_days: { [firstDay]: registers },
    folded_to: 0,
  };
}

/** Day `d`'s people: six in ten new, the rest from the days before. */
function dayDocs(day: string, d: number): VisitorDay[] {
  const fresh = Math.floor(V * 0.6);
  return Array.from({ length: V }, (_, n) => {
    const p = n < fresh ? d * fresh + n : Math.floor((n * 7919) % Math.max(1, d * fresh + fresh));
    return visitorDayOf(day, p, addDays(day, -Math.max(0, d - Math.floor(p / fresh))));
  });
}

const QUESTIONS: Array<[string, Filter[]]> = [
  [
    'page + referrer',
    [
      { dimension: 'page', value: '/resume', negated: false },
      { dimension: 'referrer', value: 'www.linkedin.com', negated: false },
    ],
  ],
  ['!page', [{ dimension: 'page', value: '/resume', negated: true }]],
  [
    'three filters',
    [
      { dimension: 'page', value: '/resume', negated: false },
      { dimension: 'country', value: 'US', negated: false },
      { dimension: 'browser', value: 'chrome', negated: true },
    ],
  ],
];

/** Serverless Cosmos DB: $0.25 a million RU; Blob Storage (hot): $0.0044 per 10,000 reads; Flex Consumption: $0.000026 a GB-second at 2 GB. */
const DOLLARS = { ru: 0.25 / 1e6, blobRead: 0.0044 / 1e4, gbSecond: 0.000026 };

/**
 * Pushing the question into Cosmos DB: one query a figure a day (the sums, three sketches by GROUP BY register, and one
 * GROUP BY for each of the card's 16 lists), each loading every matching document from its index seek: 2.5 RU a query
 * page plus 1 RU a KB loaded, the rule of every bench here, and what each answers (the sums, groups and registers).
 */
const COSMOS_QUERIES_A_DAY = 20;

export async function run(): Promise<void> {
  const engine = await DuckEngine.open();
  const folder = await mkdtemp(join(tmpdir(), 'scans-bench-'));
  const today = new Date().toISOString().slice(0, 10);
  const files: string[] = [];
  let wrote = 0;
  let fileBytes = 0;
  let docBytes = 0;
  for (let d = 0; d < DAYS; d += 1) {
    const day = addDays(today, d - DAYS);
    const docs = dayDocs(day, d);
    docBytes += docs.reduce((sum, doc) => sum + JSON.stringify(doc).length, 0);
    const began = performance.now();
    const bytes = await engine.parquetOf([docs.map((doc) => tokenRow([doc], RULES))]);
    wrote += performance.now() - began;
    const file = join(folder, `${day}.parquet`);
    await writeFile(file, bytes);
    fileBytes += (await stat(file)).size;
    files.push(file);
  }
  console.log(
    `  ${fmt(V)} people a day, ${DAYS} days: visitor-days ${fmt(docBytes / 1024 / 1024, 1)} MB as JSON, files ${fmt(fileBytes / 1024 / 1024, 1)} MB, written in ${fmt(wrote / DAYS)} ms a day`,
  );
  for (const [name, filters] of QUESTIONS) {
    const began = performance.now();
    const cpu = process.cpuUsage();
    const tally = await engine.tally(files, filters);
    const period = periodOf(partsOf(tally, [...tally.counts.keys()]).parts, RULES);
    const ms = performance.now() - began;
    // This process's CPU, the engine's threads with it: on a shared machine the wall time waits on others.
    const used = process.cpuUsage(cpu);
    const matched = [...tally.counts.values()].reduce((sum, counts) => sum + counts.visitor_days.people, 0);
    // The matching documents a query of Cosmos DB loads, at the mean size of the day's visitor-days.
    const matchedKb = (matched * docBytes) / (DAYS * V) / 1024;
    const ru = DAYS * COSMOS_QUERIES_A_DAY * 2.5 + COSMOS_QUERIES_A_DAY * Math.ceil(matchedKb);
    const columnar = DAYS * DOLLARS.blobRead + (ms / 1000) * 2 * DOLLARS.gbSecond;
    console.log(
      `  ${name}: ${fmt(matched)} matching visitor-days, people ${fmt(period.people.estimate)}, page loads ${fmt(period.page_loads)}`,
    );
    console.log(
      `    (b) columnar: ${DAYS} Blob reads, ${fmt(tally.bytes / 1024)} KB of the columns asked (${fmt(fileBytes / 1024)} KB whole files), ${fmt(ms)} ms (${fmt((used.user + used.system) / 1000)} ms of CPU), $${columnar.toFixed(6)} a read`,
    );
    console.log(
      `    (a) in Cosmos DB: ${fmt(DAYS * COSMOS_QUERIES_A_DAY)} queries loading ${fmt(matchedKb)} KB of documents each figure, ~${fmt(ru)} RU (estimated), $${(ru * DOLLARS.ru).toFixed(6)} a read`,
    );
  }
  if (process.env.SCANS_KEEP) console.log(`  files kept in ${folder}`);
  else await rm(folder, { recursive: true, force: true });
}
