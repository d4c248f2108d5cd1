import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Page } from 'playwright-core';
import { rootFromEnvironment } from '../host/composition';
import { startLocalHost, type LocalHost } from '../host/local/host';
import { startAzurite, startCosmos } from '../host/local/services';
import { addDays } from '../shared/core/days';
import { memoryLogger } from '../shared/core/ports/logger';
import { freshLocalStore } from './local-store';
import { postHits } from './post-hits';
import { fmt } from './report';
import { hostSettings, KEYS } from './settings';

/**
 * `npm run bench dashboard`: how long the dashboard takes to redraw for a period change and for a filter click, in
 * headless Chromium, on the local stack holding 30 days at 1,000 people a day (DASH_V and DASH_DAYS set others).
 * The days are posted to POST /api/hits a day at a time with the host's clock on that day, kept by the queue trigger
 * and folded until caught up. Each change is timed in the page: from the click (or key) to the frame after the
 * dashboard says it is drawn, and apart, the card's read (its resource timing) and the rest (drawing).
 */

const V = Number(process.env.DASH_V ?? 1_000);
const DAYS = Number(process.env.DASH_DAYS ?? 30);
/** How many times each change is timed, after one untimed. */
const TIMES = Number(process.env.DASH_TIMES ?? 10);

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];
const REFERRERS = [
  'https://github.com/someone/dotfiles',
  'https://www.linkedin.com/',
  'https://www.google.com/',
  'https://news.ycombinator.com/',
];

/** A visitor's address: private ranges, never loopback (loopback is the site's own read). */
const personAddress = (p: number) => `10.${1 + ((p >> 16) & 127)}.${(p >> 8) & 255}.${p & 255}`;

/** One day's hits: `people` people from person `first` on, one to four pages each, a referrer for some, a campaign for a few. */
function dayHits(day: string, first: number, people: number) {
  const start = Date.parse(`${day}T00:00:00Z`);
  return Array.from({ length: people }, (_, n) => {
    const p = first + n;
    const at = start + Math.floor((n / people) * 23 * 3_600_000);
    const pages = ['/', '/about', '/resume', `/blog/post-${(p * 7) % 40}`, `/projects/${p % 25}`].slice(0, 1 + ((p * 7 + (p >> 2)) % 4));
    if (p % 13 === 0) pages[0] = '/?utm_source=newsletter&utm_medium=email&utm_campaign=launch';
    return pages.map((path, i) => ({
      at: new Date(at + i * 45_000).toISOString(),
      address: personAddress(p),
      user_agent: AGENTS[p % AGENTS.length]!,
      path,
      ...(i === 0 && p % 10 < REFERRERS.length ? { referrer: REFERRERS[p % 10] } : {}),
      page_load: true,
    }));
  }).flat();
}

const bodiesOf = (hits: readonly object[]) =>
  Array.from({ length: Math.ceil(hits.length / 50) }, (_, i) => JSON.stringify({ hits: hits.slice(i * 50, i * 50 + 50) }));

/** A clock that runs from where it is set, so the fold's budget by time still passes, and can be moved on. */
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

/** The fold run until its own log lines say it is caught up; answers the runs taken. */
async function foldUntilCaughtUp(host: LocalHost, logger: { lines: string[] }, clock: ReturnType<typeof benchClock>): Promise<number> {
  await sleep(2_200);
  for (let run = 1; run <= 300; run += 1) {
    logger.lines.length = 0;
    await host.run('recount');
    if (!logger.lines.some((line) => /the fold is behind|could not start|did not finish|another fold is running/.test(line))) return run;
    clock.advance(60_000);
  }
  throw new Error('the fold did not catch up in 300 runs');
}

/**
 * In the page (its own `performance`, as every function run there, never Node's): the time of each click or key, and
 * of the frame after the dashboard says it has drawn.
 */
function watchRedraws() {
  const marks = window as unknown as { clicked: number; painted: number; loading: boolean };
  for (const type of ['click', 'keydown']) document.addEventListener(type, () => (marks.clicked = performance.now()), { capture: true });
  new MutationObserver(() => {
    const state = document.querySelector('#dashboard')?.getAttribute('data-state');
    // Only a read that began after the click counts: the one the click asked for.
    if (state === 'loading' && marks.clicked > 0) marks.loading = true;
    if (state === 'ready' && marks.loading) requestAnimationFrame(() => setTimeout(() => (marks.painted = performance.now()), 0));
  }).observe(document.querySelector('#dashboard')!, { attributes: true, attributeFilter: ['data-state'] });
}

interface Timing {
  total: number;
  read: number;
}

/** Times one change: `act` clicks or presses, and the dashboard then draws the card of `query`. */
async function timed(page: Page, act: () => Promise<void>): Promise<Timing> {
  await page.evaluate(() => {
    performance.clearResourceTimings();
    Object.assign(window, { clicked: 0, painted: 0, loading: false });
  });
  await act();
  await page.waitForFunction(() => (window as unknown as { painted: number }).painted > 0, undefined, { timeout: 60_000 });
  return page.evaluate(() => {
    const { clicked, painted } = window as unknown as { clicked: number; painted: number };
    const card = performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname === '/api/admin/activity') as PerformanceResourceTiming[];
    return { total: painted - clicked, read: card.reduce((sum, entry) => sum + entry.responseEnd - entry.startTime, 0) };
  });
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

function line(name: string, timings: Timing[]): string {
  const totals = timings.map((t) => t.total);
  const reads = timings.map((t) => t.read);
  const drawing = timings.map((t) => t.total - t.read);
  return (
    `${name}, ${timings.length} times: median ${fmt(quantile(totals, 0.5))} ms (the card's read ${fmt(quantile(reads, 0.5))} ms, ` +
    `the rest ${fmt(quantile(drawing, 0.5))} ms), p90 ${fmt(quantile(totals, 0.9))} ms, most ${fmt(Math.max(...totals))} ms`
  );
}

export async function run(): Promise<void> {
  const began = performance.now();
  const [azurite, cosmos] = await Promise.all([startAzurite(), startCosmos()]);
  const { container } = await freshLocalStore(cosmos.endpoint, { prefix: 'dashboard' });
  const today = new Date().toISOString().slice(0, 10);
  const firstDay = addDays(today, -DAYS);
  const clock = benchClock(`${firstDay}T23:10:00Z`);
  const logger = memoryLogger();
  const env = hostSettings(azurite.connectionString, cosmos.endpoint, 'dashboard', { COSMOS_DATABASE: container.database.id });
  const host = await startLocalHost({ root: rootFromEnvironment(env, { clock, logger }), port: 0, timers: false });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu'],
  });
  try {
    let posted = 0;
    for (let d = 0; d < DAYS; d += 1) {
      const day = addDays(firstDay, d);
      clock.set(`${day}T23:10:00Z`);
      // Each day, six in ten of the day's people are new; the rest came before.
      const hits = dayHits(day, Math.floor(d * 0.6 * V), V);
      await postHits(host.url, bodiesOf(hits));
      posted += hits.length;
      await host.drain(600_000);
      await foldUntilCaughtUp(host, logger, clock);
    }
    clock.set(`${today}T12:00:00Z`);
    await foldUntilCaughtUp(host, logger, clock);
    console.log(
      `${DAYS} days at ${fmt(V)} people a day (${fmt(posted)} page loads posted to POST /api/hits, kept and folded) in ${fmt((performance.now() - began) / 1000)} s; ` +
        `headless Chromium at 1280×800, each change timed in the page from the click or key to the frame after the dashboard says it has drawn`,
    );

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${host.url}/api/admin`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#key', KEYS.OPERATOR_KEY);
    await page.press('#key', 'Enter');
    await page.waitForSelector('#dashboard[data-state="ready"]');
    await page.evaluate(watchRedraws);

    // A period change: the keys for 7 days and 30 days in turn, as a reader would compare them.
    const periods: Timing[] = [];
    for (let i = 0; i <= TIMES; i += 1) {
      const timing = await timed(page, () => page.keyboard.press(i % 2 === 0 ? 'w' : 'm'));
      if (i > 0) periods.push(timing);
    }
    console.log(line('a period change (7 days and 30 days in turn)', periods));

    // A filter click: a page of the top five, on the 30 days, then its chip removed.
    const filters: Timing[] = [];
    const removals: Timing[] = [];
    for (let i = 0; i <= TIMES; i += 1) {
      const row = `#pages-table tbody tr:nth-child(${1 + (i % 5)}) button.filter`;
      const added = await timed(page, () => page.click(row));
      const removed = await timed(page, () => page.click('#filter-list .chip-remove'));
      if (i === 0) continue;
      filters.push(added);
      removals.push(removed);
    }
    console.log(line('a filter click (a page of the top five, 30 days)', filters));
    console.log(line("a filter's chip removed", removals));
  } finally {
    await browser.close();
    await host.stop();
    await Promise.all([cosmos.stop(), azurite.stop()]);
  }
}
