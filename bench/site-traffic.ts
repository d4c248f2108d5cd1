import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { rootFromEnvironment } from '../host/composition';
import { startLocalHost, type LocalHost } from '../local/host';
import { memoryLogger } from '../shared/core/ports/logger';
import { addDays } from '../shared/core/days';
import { hostSettings, postHits } from './settings';

export const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
];
const SCANNER_AGENTS = ['Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', 'python-requests/2.32.3', 'curl/8.5.0'];
const REFERRERS =
  'https://github.com/someone/dotfiles https://www.linkedin.com/ https://www.google.com/ https://news.ycombinator.com/'.split(' ');

/** A visitor's address in private ranges, never loopback (loopback is the site's own read). */
export const personAddress = (p: number) => `10.${1 + ((p >> 16) & 127)}.${(p >> 8) & 255}.${p & 255}`;
const scannerAddress = (s: number) => `172.${16 + ((s >> 16) & 15)}.${(s >> 8) & 255}.${s & 255}`;

type SiteEvent = { event: string; props: Record<string, string> };
type ServerHit = {
  at: string;
  address: string;
  user_agent: string;
  path: string;
  referrer?: string;
  page_load: boolean;
} & Partial<SiteEvent>;
type Events = (p: number) => SiteEvent[];

/** Day `d`'s hits as a site's server reports them: `people` people from `first` on, a hit a page, their events, and scanners. */
export function dayHits(day: string, d: number, first: number, people: number, scanners = 0, eventsOf: Events = () => []): ServerHit[] {
  const start = Date.parse(`${day}T00:00:00Z`);
  const hits: ServerHit[] = [];
  for (let n = 0; n < people; n += 1) {
    const p = first + n;
    const at = start + Math.floor((n / people) * 23 * 3_600_000);
    const count = 1 + ((p * 3 + day.charCodeAt(9)) % 4);
    const pages = ['/', '/about', '/resume', `/blog/post-${(p * 7) % 40}`, `/projects/${p % 25}`].slice(0, count);
    if (p % 13 === 0) pages[0] = '/?utm_source=newsletter&utm_medium=email&utm_campaign=launch';
    const person = { address: personAddress(p), user_agent: AGENTS[p % AGENTS.length]! };
    pages.forEach((path, i) => {
      const referrer = i === 0 && p % 10 < REFERRERS.length ? REFERRERS[p % 10] : undefined;
      hits.push({ at: new Date(at + i * 45_000).toISOString(), ...person, path, ...(referrer ? { referrer } : {}), page_load: true });
    });
    const last = pages[pages.length - 1]!.split('?')[0]!;
    eventsOf(p).forEach(({ event, props }, i) =>
      hits.push({ at: new Date(at + (pages.length + i) * 45_000).toISOString(), ...person, path: last, page_load: false, event, props }),
    );
  }
  for (let s = 0; s < scanners; s += 1) {
    const at = start + Math.floor((s / scanners) * 23 * 3_600_000) + 600_000;
    const scanner = { address: scannerAddress(d * 10_000 + s), user_agent: SCANNER_AGENTS[s % SCANNER_AGENTS.length]! };
    for (const [i, path] of ['/wp-login.php', '/.env'].entries())
      hits.push({ at: new Date(at + i * 1_000).toISOString(), ...scanner, path, page_load: false });
  }
  return hits;
}

export const bodiesOf = (hits: readonly object[], size = 50) =>
  Array.from({ length: Math.ceil(hits.length / size) }, (_, i) => JSON.stringify({ hits: hits.slice(i * size, i * size + size) }));

/** A clock that runs from where it is set, so the fold's budget by time still passes, and can be moved on. */
export function benchClock(start: string) {
  let base = Date.parse(start);
  let setAt = performance.now();
  return {
    now: () => new Date(base + (performance.now() - setAt)),
    set: (at: string) => void ([base, setAt] = [Date.parse(at), performance.now()]),
    advance: (ms: number) => void (base += ms),
  };
}

export type BenchClock = ReturnType<typeof benchClock>;
type Lines = { lines: string[] };
type HitsOf = (day: string, d: number) => ServerHit[];

/** A local host on `clock`, timers off, whose logger keeps its lines so the fold's own words say when it caught up. */
export async function clockedHost(queue: string, cosmos: string, name: string, more: Record<string, string>, clock: BenchClock) {
  const logger = memoryLogger();
  // The local Cosmos server on a machine shared with other work may take longer than the client's 5 s to answer a page,
  // and a fold whose every run times out never catches up: the bench waits, as it measures calls and bytes, not time.
  const root = rootFromEnvironment(hostSettings(queue, cosmos, name, more), { clock, logger, cosmosRequestTimeoutMs: 120_000 });
  return { host: await startLocalHost({ root, port: 0, timers: false }), logger };
}

/** The fold run until its log says it is caught up, the clock a minute on after each run; answers the runs taken. */
export async function foldUntilCaughtUp(host: LocalHost, logger: Lines, clock: BenchClock): Promise<number> {
  // Past the settle margin (1 s) and the store clock's second.
  await sleep(2_200);
  for (let run = 1; run <= 300; run += 1) {
    logger.lines.length = 0;
    await host.run('recount');
    if (!logger.lines.some((line) => /the fold is behind|could not start|did not finish|another fold is running/.test(line))) return run;
    clock.advance(60_000);
  }
  throw new Error('the fold did not catch up in 300 runs');
}

/** `days` days before today posted a day at a time (at 23:10, `hitsOf` the day's), kept and folded; then folded at noon today. */
export async function postDays(host: LocalHost, logger: Lines, clock: BenchClock, days: number, hitsOf: HitsOf) {
  const today = new Date().toISOString().slice(0, 10);
  const totals = { posted: 0, events: 0, foldRuns: 0 };
  for (let d = 0; d < days; d += 1) {
    const day = addDays(today, d - days);
    clock.set(`${day}T23:10:00Z`);
    const hits = hitsOf(day, d);
    await postHits(host.url, bodiesOf(hits));
    totals.posted += hits.length;
    totals.events += hits.filter((hit) => hit.event !== undefined).length;
    await host.drain(600_000);
    totals.foldRuns += await foldUntilCaughtUp(host, logger, clock);
  }
  clock.set(`${today}T12:00:00Z`);
  totals.foldRuns += await foldUntilCaughtUp(host, logger, clock);
  return totals;
}
