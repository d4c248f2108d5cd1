import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { PeopleCount } from '../shared/read/counting/people-count';
import { localPort, localValues, readLocalSettings, type LocalSettings } from '../local/local-settings';

/**
 * `npm run simulate`: realistic traffic posted to a running local stack (`npm start`), then the fold run, so the
 * pulse and the Admin count show real figures at once. Deterministic for a seed. Options:
 *   --port <n> (or --url <http://127.0.0.1:7071>)  --days <7>  --people <40>  --seed <42>
 * The host is found as `npm start` finds its port (`--port`, PORT, Host.LocalHttpPort, 7071), unless `--url` names it.
 * `--days` is at most HIT_MAX_AGE_DAYS (the ingest refuses an older `at`, and that setting is at most 7).
 */

const optionsSchema = z.object({
  url: z.url().optional(),
  days: z.coerce.number().int().min(1).max(365).default(7),
  people: z.coerce.number().int().min(1).max(2_000).default(40),
  seed: z.coerce.number().int().default(42),
});

const settingsSchema = z.looseObject({
  INGEST_KEY: z.string().min(1),
  OPERATOR_KEY: z.string().min(1),
  SELF_AGENT_TAG: z.string().default('headcount-self'),
  HIT_MAX_AGE_DAYS: z.coerce.number().int().default(7),
});

/** mulberry32: a small seeded generator, so one seed is one simulation. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
];
const CRAWLERS = [
  { address: '66.249.66.1', agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
  { address: '40.77.167.5', agent: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' },
  { address: '69.171.250.9', agent: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)' },
];
// Scanners probe from data centres, as they do: addresses on hosting networks.
const SCANNERS = [
  { address: '167.99.10.50', agent: 'curl/8.5.0' },
  { address: '167.99.10.66', agent: 'python-requests/2.31.0' },
  { address: '2a03:b0c0:3::9', agent: 'Mozilla/5.0 zgrab/0.x' },
];
/** The site's uptime monitor, from a cloud's network, carrying the self tag. */
const MONITOR = '20.42.1.200';
const PROBES = ['/wp-login.php', '/.env', '/.git/config', '/xmlrpc.php', '/wp-admin/setup-config.php'];
const PAGES = ['/', '/about', '/trees/42', '/trees/7', '/blog/counting-people-once', '/contact', '/shop', '/shop/cart'];
const REFERRERS = [
  'https://www.linkedin.com/feed/',
  'https://github.com/headcount/headcount',
  'https://www.google.com/',
  'https://www.bing.com/search',
  'https://duckduckgo.com/',
];
/**
 * People's networks: public ranges that the app's country table places in ten countries and that are on no hosting
 * network, so the dashboard shows the countries a site owner would see (test/unit/simulate.test.ts holds both). The
 * addresses are made up inside them, and like any address never leave the app's edge.
 */
export const NETWORKS = [
  '73.15.2', // US
  '79.200.1', // DE
  '86.140.3', // GB
  '90.12.4', // FR
  '153.200.5', // JP
  '101.170.6', // AU
  '70.30.7', // CA
  '177.10.8', // BR
  '83.40.1', // ES
  '77.170.2', // NL
  '2601:1c2:5', // US
  '2003:e1:7', // DE
  '2a01:e0a:9', // FR
];

interface Hit {
  at: string;
  address: string;
  user_agent: string;
  path: string;
  store?: string;
  referrer?: string;
  page_load?: boolean;
  subject?: string;
}

/** Addresses on a few networks, IPv4 and IPv6. */
const addressOn = (network: string, host: number) =>
  network.includes(':') ? `${network}::${host.toString(16)}` : `${network}.${(host % 250) + 1}`;

/** The whole simulation: every hit, each at a time in the last `days` days, no older than the ingest takes. */
/** What was posted, naming the rest only when some were not counted. */
export function postedWords(posted: number, days: number, accepted: number): string {
  const rest = posted - accepted;
  return `posted ${posted} hits over ${days} days (${accepted} counted${rest > 0 ? `, ${rest} assets or ignored` : ''})`;
}

export function simulate(options: { days: number; people: number; seed: number; selfTag: string; now: Date; maxAgeDays: number }): Hit[] {
  const random = seeded(options.seed);
  const oldest = options.now.getTime() - options.maxAgeDays * 86_400_000 + 60_000;
  const atOn = (back: number) =>
    new Date(Math.max(oldest, options.now.getTime() - back * 86_400_000 - random.int(20 * 3_600_000))).toISOString();
  const visitors = Array.from({ length: options.people }, (_, i) => ({
    home: addressOn(random.pick(NETWORKS), 10 + i),
    // A third also read from a phone on another network: a person on two networks is two visitors, as the count says.
    away: random.next() < 0.33 ? addressOn(random.pick(NETWORKS), 200 + i) : null,
    agent: random.pick(BROWSERS),
    loyalty: random.next(),
  }));
  const hits: Hit[] = [];
  for (let back = options.days - 1; back >= 0; back -= 1) {
    for (const visitor of visitors) {
      if (random.next() > 0.15 + visitor.loyalty * 0.5) continue;
      const address = visitor.away && random.next() < 0.3 ? visitor.away : visitor.home;
      const start = atOn(back);
      const views = 1 + random.int(5);
      for (let view = 0; view < views; view += 1) {
        const path = random.pick(PAGES);
        const at = new Date(Math.min(Date.parse(start) + view * 45_000, options.now.getTime())).toISOString();
        hits.push({
          at,
          address,
          user_agent: visitor.agent,
          path,
          store: path.startsWith('/shop') ? 'shop' : 'site',
          referrer: view === 0 && random.next() < 0.6 ? random.pick(REFERRERS) : undefined,
          page_load: true,
          subject: path.startsWith('/trees/') ? `tree-${path.slice(7)}` : undefined,
        });
      }
    }
    for (const crawler of CRAWLERS)
      for (let i = random.int(4); i > 0; i -= 1)
        hits.push({ at: atOn(back), address: crawler.address, user_agent: crawler.agent, path: random.pick(PAGES) });
    for (const scanner of SCANNERS)
      for (let i = random.int(3); i > 0; i -= 1)
        hits.push({ at: atOn(back), address: scanner.address, user_agent: scanner.agent, path: random.pick(PROBES) });
    // The site's own health checks, from loopback and from a monitor carrying the self tag.
    for (let i = 0; i < 6; i += 1) {
      hits.push({ at: atOn(back), address: '127.0.0.1', user_agent: 'node-fetch/1.0', path: '/health' });
      hits.push({ at: atOn(back), address: MONITOR, user_agent: `${options.selfTag}/1.0 (uptime)`, path: '/health' });
    }
  }
  return hits;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where the host is: `--url`, else 127.0.0.1 on the port `npm start` reads; with where that was read, for a message. */
function hostOf(url: string | undefined, argv: readonly string[], file: LocalSettings) {
  if (url !== undefined) return { url: url.replace(/\/+$/, ''), from: '--url' };
  const { port, from } = localPort(argv, localValues(file), file);
  return { url: `http://127.0.0.1:${port}`, from };
}

/** fetch, with a refused or lost connection said as where the host was looked for and how to name another. */
async function reach(host: { url: string; from: string }, path: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(`${host.url}${path}`, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(
      `nothing answers at ${host.url} (${host.from}): ${cause?.code ?? cause?.message ?? String(error)}. Is \`npm start\` running? If it listens elsewhere, name it with --port <n> or --url <address>`,
      { cause: error },
    );
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      port: { type: 'string' },
      days: { type: 'string' },
      people: { type: 'string' },
      seed: { type: 'string' },
    },
  });
  const { port: _port, ...rest } = values;
  const parsed = optionsSchema.safeParse(rest);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('\n'));
  const options = parsed.data;
  const file = readLocalSettings();
  const read = settingsSchema.safeParse(localValues(file));
  if (!read.success) throw new Error(read.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n'));
  const settings = read.data;
  const host = hostOf(options.url, argv, file);
  if (options.days > settings.HIT_MAX_AGE_DAYS) {
    throw new Error(
      `--days: at most HIT_MAX_AGE_DAYS (${settings.HIT_MAX_AGE_DAYS}), as the ingest refuses an older \`at\` (each day's secret is deleted past it)`,
    );
  }
  const hits = simulate({ ...options, selfTag: settings.SELF_AGENT_TAG, now: new Date(), maxAgeDays: settings.HIT_MAX_AGE_DAYS });
  let accepted = 0;
  for (let start = 0; start < hits.length; start += 500) {
    const response = await reach(host, '/api/hits', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': settings.INGEST_KEY },
      body: JSON.stringify({ hits: hits.slice(start, start + 500) }),
    });
    const body = (await response.json()) as { accepted?: number; error?: { message: string } };
    if (response.status !== 202) throw new Error(`POST /api/hits answered ${response.status}: ${body.error?.message ?? ''}`);
    accepted += body.accepted ?? 0;
  }
  console.log(`${postedWords(hits.length, options.days, accepted)}; waiting for keep-hits…`);
  const count = async () => {
    const response = await reach(host, '/api/admin/visitors/people', { headers: { 'x-operator-key': settings.OPERATOR_KEY } });
    if (response.status !== 200) throw new Error(`GET /api/admin/visitors/people answered ${response.status}: is OPERATOR_KEY the host's?`);
    return (await response.json()) as PeopleCount;
  };
  // keep-hits drains the queue on its own, and the count moves only when the fold folds what it kept: so it runs
  // once a second until two runs in a row find the same people and visits (the queue is empty then), at most 2 min.
  let figures = await count();
  for (let still = 0, polls = 0; still < 2 && polls < 120; polls += 1) {
    await sleep(1_000);
    const recount = await reach(host, '/admin/functions/recount', { method: 'POST' });
    if (recount.status !== 202) throw new Error(`the fold answered ${recount.status}`);
    const next = await count();
    const same = next.people_all_time === figures.people_all_time && next.visits?.all_time === figures.visits?.all_time;
    still = same && (next.people_all_time ?? 0) > 0 ? still + 1 : 0;
    figures = next;
  }
  const lastWeek = (figures.visits?.by_day ?? []).slice(-7).map((day) => `${day.day.slice(5)} ${day.visits}`);
  console.log(
    `people, each counted once: ${figures.people_all_time} since ${figures.counted_from} (new today ${figures.people_new_today}; scanners and crawlers left out ${figures.scanners_left_out})`,
  );
  console.log(
    `visits by people:          ${figures.visits?.all_time ?? 'none yet'} since ${figures.visits?.from ?? '-'}; last 7 days: ${lastWeek.join(', ')}`,
  );
  console.log(`source:                    ${figures.source}`);
  console.log(`see them:   ${host.url}/api/admin (sign in with OPERATOR_KEY)   ·   curl ${host.url}/api/pulse`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
