import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { addDays } from '../../shared/core/days';

/**
 * A site's history as its web server logged it, made up from a seed: people with real browsers (one Chrome updating
 * itself from 126 to 129 over the months, two people behind one home router), crawlers, scanners, a load balancer's
 * health checks and the site's own monitor, with their assets, form posts, redirects and 304s. Each request knows who
 * made it, so the figures the app should reach are counted here by the rules as the docs state them, apart from the
 * app's code: the log's truth.
 */

/** Who made a request, as the test knows it (the app sees only the address and the agent). */
export type Role = 'person' | 'bot' | 'self';

export interface LoggedRequest {
  at: Date;
  address: string;
  agent: string;
  method: string;
  path: string;
  status: number;
  referrer: string | null;
  role: Role;
  /** The visitor as the rules see one: the address and the browser family (versions aside). */
  identity: string;
}

/** A small, fast, seeded generator (mulberry32), so the history is the same every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const BROWSERS: Record<string, (version: number) => string> = {
  'chrome-windows': (v) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`,
  'edge-windows': (v) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36 Edg/${v}.0.2592.87`,
  'firefox-linux': (v) => `Mozilla/5.0 (X11; Linux x86_64; rv:${v}.0) Gecko/20100101 Firefox/${v}.0`,
  'firefox-windows': (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${v}.0) Gecko/20100101 Firefox/${v}.0`,
  'safari-mac': (v) =>
    `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${(v % 10) + 10}.${v % 7} Safari/605.1.15`,
  'safari-iphone': (v) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${v % 7} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${v % 7} Mobile/15E148 Safari/604.1`,
  'samsung-android': (v) =>
    `Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/${v % 30}.0 Chrome/${v}.0.0.0 Mobile Safari/537.36`,
  'chrome-android': (v) =>
    `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Mobile Safari/537.36`,
};

/** Home and mobile networks (Comcast, Deutsche Telekom, BT, Orange, Telefónica, Vodafone, T-Mobile): a person's address. */
const HOME_PREFIXES = ['73.15', '24.4', '79.192', '91.36', '86.128', '81.128', '90.0', '83.32', '88.64', '172.56'];
const HOME_V6 = ['2601:600:1', '2003:e0:1', '2a00:23c0:1', '2a01:cb00:1', '2a02:8108:1'];

const PAGES = ['/', '/about', '/blog/', '/blog/first-post/', '/blog/second-post/', '/resume/', '/projects/', '/contact'];
const ASSETS = ['/assets/site.css', '/assets/app.js', '/images/hero.webp', '/favicon.ico'];
const REFERRERS = [
  'https://www.google.com/',
  'https://www.linkedin.com/',
  'https://github.com/',
  'https://news.ycombinator.com/',
  null,
  null,
  null,
];

/** The figures the log should give, for the days on or before `until`. */
export interface HistoryTruth {
  people: number;
  countedFrom: string | null;
  scanners: number;
  /** Visits by people by day (a person, an address and a browser family, with a counted request on a UTC day), days with none left out. */
  visitsByDay: Record<string, number>;
  /** New people by the day they were first seen as a person. */
  peopleByDay: Record<string, number>;
  /** Requests counted (not ignored), by day. */
  requestsByDay: Record<string, number>;
}

const ASSET = /\.(css|js|webp|png|ico|woff2)$/;

/** Whether the app counts the request at all: GET or HEAD, not a redirect, not an asset or a file at the root, not /admin. */
export const counted = (request: LoggedRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  ![301, 302, 303, 307, 308].includes(request.status) &&
  !ASSET.test(request.path.split('?')[0]!) &&
  !/^\/[^/]+\.(txt|xml)$/.test(request.path.split('?')[0]!) &&
  !request.path.startsWith('/admin');

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The log's truth: counted by the rules, from who made each request. */
export function truthOf(requests: readonly LoggedRequest[], until: string): HistoryTruth {
  const taken = requests.filter((request) => counted(request) && dayOf(request.at) <= until);
  const people = new Map<string, string>();
  const bots = new Map<string, string>();
  const visits = new Map<string, Set<string>>();
  const requestsByDay: Record<string, number> = {};
  for (const request of [...taken].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const day = dayOf(request.at);
    requestsByDay[day] = (requestsByDay[day] ?? 0) + 1;
    if (request.role === 'person') {
      if (!people.has(request.identity)) people.set(request.identity, day);
      // A visit is one person's day: two browsers behind one router are two.
      const identities = visits.get(day) ?? new Set<string>();
      identities.add(request.identity);
      visits.set(day, identities);
    } else if (request.role === 'bot' && !bots.has(request.identity)) bots.set(request.identity, day);
  }
  const peopleByDay: Record<string, number> = {};
  for (const day of people.values()) peopleByDay[day] = (peopleByDay[day] ?? 0) + 1;
  const firstDays = [...people.values()].sort();
  return {
    people: people.size,
    countedFrom: firstDays[0] ?? null,
    scanners: [...bots.keys()].filter((identity) => !people.has(identity)).length,
    visitsByDay: Object.fromEntries([...visits].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, identities]) => [day, identities.size])),
    peopleByDay,
    requestsByDay,
  };
}

/**
 * A history of `days` days ending the day before `today`: about `people` people, each coming back on a few days, and
 * every day the crawlers, the health checks and the site's own monitor; scanners now and then.
 */
export function history(options: { today: string; days: number; people: number; seed?: number }): LoggedRequest[] {
  const random = seeded(options.seed ?? 21);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const first = addDays(options.today, -options.days);
  const at = (day: string, seconds: number) => new Date(Date.parse(`${day}T00:00:00Z`) + seconds * 1000);
  const requests: LoggedRequest[] = [];
  const push = (request: Omit<LoggedRequest, 'identity'> & { family: string }) => {
    const { family, ...rest } = request;
    requests.push({ ...rest, identity: `${request.address}|${family}` });
  };

  // People: an address, a browser family, a first day and a habit of coming back.
  const families = Object.keys(BROWSERS);
  const visitors = Array.from({ length: options.people }, (_, index) => {
    const v6 = index % 7 === 3;
    const address = v6
      ? `${pick(HOME_V6)}::${(index + 1).toString(16)}`
      : `${pick(HOME_PREFIXES)}.${1 + Math.floor(random() * 250)}.${1 + Math.floor(random() * 250)}`;
    return { address, family: families[index % families.length]!, firstDay: Math.floor(random() * options.days), loyalty: random() };
  });
  // Two people behind one home router: one address, two browsers.
  visitors.push({ address: '79.192.200.1', family: 'firefox-linux', firstDay: 5, loyalty: 0.3 });
  visitors.push({ address: '79.192.200.1', family: 'safari-iphone', firstDay: 9, loyalty: 0.3 });
  // One browser that updates itself: the same person all along, from Chrome 126 to 129.
  visitors.push({ address: '86.128.77.7', family: 'chrome-windows', firstDay: 0, loyalty: 0.6 });

  for (let d = 0; d < options.days; d += 1) {
    const day = addDays(first, d);
    for (const visitor of visitors) {
      if (d < visitor.firstDay || (d > visitor.firstDay && random() > visitor.loyalty * 0.5)) continue;
      const version = 126 + Math.floor((d / options.days) * 4);
      const agent = BROWSERS[visitor.family]!(version);
      let second = Math.floor(random() * 80_000);
      const referrer = pick(REFERRERS);
      const pages = 1 + Math.floor(random() * 4);
      for (let p = 0; p < pages; p += 1) {
        const path = p === 0 && random() < 0.3 ? `${pick(PAGES)}?utm_source=newsletter&sid=${Math.floor(random() * 1e9)}` : pick(PAGES);
        const base = { address: visitor.address, agent, role: 'person' as const, family: visitor.family };
        if (path === '/blog' || (p > 0 && random() < 0.1)) {
          push({ ...base, at: at(day, second), method: 'GET', path: '/blog', status: 301, referrer: null });
          second += 1;
        }
        push({
          ...base,
          at: at(day, second),
          method: 'GET',
          path,
          status: random() < 0.1 ? 304 : 200,
          referrer: p === 0 ? referrer : 'https://example.com/',
        });
        for (const asset of ASSETS.slice(0, 1 + Math.floor(random() * 3)))
          push({ ...base, at: at(day, second), method: 'GET', path: asset, status: 200, referrer: 'https://example.com/' });
        if (path === '/contact' && random() < 0.5)
          push({
            ...base,
            at: at(day, second + 20),
            method: 'POST',
            path: '/contact',
            status: 303,
            referrer: 'https://example.com/contact',
          });
        second += 30 + Math.floor(random() * 200);
      }
    }
    // Crawlers, by their real agents, from their operators' networks.
    for (const [address, agent, family] of [
      ['66.249.66.1', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'googlebot'],
      ['66.249.66.40', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'googlebot'],
      ['40.77.167.5', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bingbot'],
    ] as const) {
      if (random() < 0.5) continue;
      const second = Math.floor(random() * 86_000);
      push({ at: at(day, second), address, agent, method: 'GET', path: '/robots.txt', status: 200, referrer: null, role: 'bot', family });
      push({ at: at(day, second + 2), address, agent, method: 'GET', path: pick(PAGES), status: 200, referrer: null, role: 'bot', family });
    }
    // The load balancer's health checks, four a day; the site's own monitor on loopback.
    for (const hour of [0, 6, 12, 18]) {
      push({
        at: at(day, hour * 3600 + 7),
        address: '10.0.0.5',
        agent: 'ELB-HealthChecker/2.0',
        method: 'GET',
        path: '/health',
        status: 200,
        referrer: null,
        role: 'bot',
        family: 'elb',
      });
      push({
        at: at(day, hour * 3600 + 9),
        address: '127.0.0.1',
        agent: 'curl/8.5.0',
        method: 'GET',
        path: '/',
        status: 200,
        referrer: null,
        role: 'self',
        family: 'curl',
      });
    }
    // Scanners now and then: a data centre with a browser's agent, and zgrab from a home network.
    if (d % 9 === 4) {
      for (const [offset, path] of ['/', '/wp-login.php', '/.env', '/phpmyadmin/', '/.git/config'].entries())
        push({
          at: at(day, 50_000 + offset),
          address: '159.89.173.104',
          agent: BROWSERS['chrome-windows']!(90),
          method: 'GET',
          path,
          status: path === '/' ? 200 : 404,
          referrer: null,
          role: 'bot',
          family: 'chrome-windows',
        });
    }
    if (d % 23 === 11) {
      for (const path of ['/.env', '/config.php', '/cgi-bin/luci'])
        push({
          at: at(day, 70_000),
          address: '172.56.200.9',
          agent: 'Mozilla/5.0 zgrab/0.x',
          method: 'GET',
          path,
          status: 404,
          referrer: null,
          role: 'bot',
          family: 'zgrab',
        });
    }
  }
  return requests.sort((a, b) => a.at.getTime() - b.at.getTime());
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** The request's time as nginx's $time_local writes it, in a zone `offsetMinutes` east of UTC. */
export function timeLocal(at: Date, offsetMinutes: number): string {
  const local = new Date(at.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const zone = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${pad(local.getUTCDate())}/${MONTHS[local.getUTCMonth()]}/${local.getUTCFullYear()}:${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ${zone}`;
}

/** One request as nginx's combined format writes it. */
export const combinedLine = (request: LoggedRequest, offsetMinutes = 0) =>
  `${request.address} - - [${timeLocal(request.at, offsetMinutes)}] "${request.method} ${request.path} HTTP/1.1" ${request.status} ${request.status === 304 ? 0 : 1000 + ((request.path.length * 37) % 9000)} "${request.referrer ?? '-'}" "${request.agent}"`;

/**
 * The history as logrotate leaves it in /var/log/nginx: four files, oldest first access.log.3.gz (gzipped),
 * access.log.2 (written while the server's clock was on UTC+2), access.log.1 and access.log, the newest. A few lines
 * no format reads are in access.log.1 (a line cut by a full disk, a TLS handshake sent to port 80).
 */
export function writeRotated(dir: string, requests: readonly LoggedRequest[]): { files: string[]; unreadable: string[] } {
  const quarter = Math.ceil(requests.length / 4);
  const parts = [0, 1, 2, 3].map((index) => requests.slice(index * quarter, (index + 1) * quarter));
  const lines = (part: readonly LoggedRequest[], offset = 0) => part.map((request) => combinedLine(request, offset));
  const oldest = join(dir, 'access.log.3.gz');
  writeFileSync(oldest, gzipSync(`${lines(parts[0]!).join('\n')}\n`));
  const zoned = join(dir, 'access.log.2');
  writeFileSync(zoned, `${lines(parts[1]!, 120).join('\n')}\n`);
  const third = lines(parts[2]!);
  const middle = Math.floor(third.length / 2);
  const broken = [
    `${parts[2]![middle]!.address} - - [${timeLocal(parts[2]![middle]!.at, 0)}] "\\x16\\x03\\x01\\x00\\xF7\\x01\\x00" 400 157 "-" "-"`,
    '203.0.113.9 - - [14/Aug/2026:03:1',
  ];
  const rotated = join(dir, 'access.log.1');
  writeFileSync(rotated, `${[...third.slice(0, middle), ...broken, ...third.slice(middle)].join('\n')}\n`);
  const newest = join(dir, 'access.log');
  writeFileSync(newest, `${lines(parts[3]!).join('\n')}\n`);
  return {
    files: [oldest, zoned, rotated, newest],
    unreadable: [`${rotated}:${middle + 1}`, `${rotated}:${middle + 2}`],
  };
}

/** A logged request as a line of `POST /api/import` carries it (its referrer apart). */
export const importLine = (request: LoggedRequest) => ({
  at: request.at.toISOString(),
  address: request.address,
  user_agent: request.agent,
  method: request.method,
  path: request.path,
  status: request.status,
});
