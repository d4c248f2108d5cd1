import { chromium, type Page } from 'playwright-core';
import { startAzurite, startCosmos } from '../local/services';
import { freshLocalStore } from './local-store';
import { fmt, percentile } from './report';
import { KEYS } from './settings';
import { benchClock, clockedHost, dayHits, postDays } from './site-traffic';

/** `npm run bench dashboard`: the dashboard's redraw for a period change and a filter click in headless Chromium, on the local stack holding 30 days of 1,000 people, timed in the page from the click to the frame after it is drawn. */
const V = Number(process.env.DASH_V ?? 1_000);
const DAYS = Number(process.env.DASH_DAYS ?? 30);
const TIMES = Number(process.env.DASH_TIMES ?? 10);

/** Run in the page, on its own clock: the time of each click or key, and of the frame after the dashboard has drawn. */
function watchRedraws() {
  const watermarks = window as unknown as { clicked: number; painted: number; loading: boolean };
  for (const type of ['click', 'keydown'])
    document.addEventListener(type, () => (watermarks.clicked = performance.now()), { capture: true });
  new MutationObserver(() => {
    const state = document.querySelector('#dashboard')?.getAttribute('data-state');
    // Only a read that began after the click counts: the one the click asked for.
    if (state === 'loading' && watermarks.clicked > 0) watermarks.loading = true;
    if (state === 'ready' && watermarks.loading) requestAnimationFrame(() => setTimeout(() => (watermarks.painted = performance.now()), 0));
  }).observe(document.querySelector('#dashboard')!, { attributes: true, attributeFilter: ['data-state'] });
}

type Timing = { total: number; read: number };

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

function line(name: string, timings: Timing[]): string {
  const totals = timings.map((t) => t.total);
  const middle = (of: (t: Timing) => number) => fmt(percentile(timings.map(of), 0.5));
  return `${name}, ${timings.length} times: median ${middle((t) => t.total)} ms (the card's read ${middle((t) => t.read)} ms, the rest ${middle((t) => t.total - t.read)} ms), p90 ${fmt(percentile(totals, 0.9))} ms, most ${fmt(Math.max(...totals))} ms`;
}

export async function run(): Promise<void> {
  const began = performance.now();
  const [azurite, cosmos] = await Promise.all([startAzurite(), startCosmos()]);
  const { container } = await freshLocalStore(cosmos.endpoint, { prefix: 'dashboard' });
  const clock = benchClock(new Date().toISOString());
  const more = { COSMOS_DATABASE: container.database.id };
  const { host, logger } = await clockedHost(azurite.connectionString, cosmos.endpoint, 'dashboard', more, clock);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu'],
  });
  try {
    // Six in ten of each day's people are new.
    const { posted } = await postDays(host, logger, clock, DAYS, (day, d) => dayHits(day, d, Math.floor(d * 0.6 * V), V));
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
