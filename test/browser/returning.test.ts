import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';
import { adminRead, NOW } from './fixture';
import { axeViolations, closeContexts, pageTroubles, paintedPixels, resetPage, workerChromium } from './support';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

// New and returning people, retention and first touch in headless Chromium, against a host that imported
// five months of a site's logs (a person's first logged day is their first day) and folded them: what the page shows
// is what the API answers.

const GOALS = 'signup=path:/signup';
const REFERRERS = [undefined, 'https://www.linkedin.com/feed/', 'https://github.com/someone', 'https://www.google.com/'];
const AGENT_OF = [AGENTS.chromeWindows, AGENTS.firefoxLinux, AGENTS.safariIphone];

/** A small generator of the same numbers every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Five months of a site's log: 40 people, each first on a day of their month, back on later days now and then. */
function history() {
  const next = random(37);
  const hits: object[] = [];
  const start = Date.parse('2026-05-25T00:00:00Z');
  const end = Date.parse(NOW) - 3_600_000;
  for (let person = 0; person < 40; person += 1) {
    const first = start + Math.floor(next() * (end - start) * 0.9);
    const days = [first];
    for (let at = first + 86_400_000 * (1 + Math.floor(next() * 20)); at < end; at += 86_400_000 * (2 + Math.floor(next() * 30)))
      if (next() < 0.6) days.push(at);
    const referrer = REFERRERS[person % REFERRERS.length];
    days.forEach((at, visit) => {
      const base = {
        address: `81.2.${60 + Math.floor(person / 200)}.${10 + (person % 200)}`,
        user_agent: AGENT_OF[person % 3],
        method: 'GET',
        status: 200,
      };
      const when = (minutes: number) => new Date(at + minutes * 60_000).toISOString();
      hits.push({
        ...base,
        at: when(0),
        path: visit === 0 && person % 5 === 0 ? '/?utm_source=news&utm_medium=email' : '/',
        ...(visit === 0 && referrer ? { referrer } : {}),
      });
      if (next() < 0.3) hits.push({ ...base, at: when(2), path: '/signup' });
    });
  }
  return hits.sort((a, b) => ((a as { at: string }).at < (b as { at: string }).at ? -1 : 1));
}

let t: TestHost;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestHost({ env: { GOALS }, overrides: { clock: fixedClock(NOW) } }), workerChromium()]);
  await containerOf(t.env);
  const sent = await post(`${t.host.url}/api/import`, { until: NOW.slice(0, 10), hits: history() }, { 'x-ingest-key': t.env.INGEST_KEY! });
  if (sent.status !== 202) throw new Error(`the import was refused: ${JSON.stringify(sent.json)}`);
  await t.host.drain();
  for (let run = 0; run < 30; run += 1) {
    await t.fold();
    const state = await t.root.store.foldState.read();
    if (state?.doc.behind === null && state.doc.imported.length === 0) break;
  }
  page = await (await browser.newContext({ bypassCSP: true })).newPage();
}, 180_000);

afterAll(async () => {
  await closeContexts(browser);
  await t?.stop();
});

/** A table's body rows as the page shows them, every cell's text. */
const rowsOf = (table: string) =>
  page.$$eval(`${table} tbody tr`, (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));

/** The page's first screen saved as a picture, as panelShot saves a part. */
async function shot(name: string): Promise<void> {
  const root = join(__dirname, '..', '..');
  const kept = join(root, 'test-results', 'screenshots', `${name}.png`);
  await mkdir(join(root, 'test-results', 'screenshots'), { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: kept });
  if (process.env.UPDATE_SCREENSHOTS === '1') await copyFile(kept, join(root, 'docs', 'screenshots', `${name}.png`));
}

/** A part of the page saved as a picture where the test run keeps its results, and with UPDATE_SCREENSHOTS=1 in docs/screenshots. */
async function panelShot(selector: string, name: string): Promise<void> {
  const root = join(__dirname, '..', '..');
  const kept = join(root, 'test-results', 'screenshots', `${name}.png`);
  await mkdir(join(root, 'test-results', 'screenshots'), { recursive: true });
  await page.locator(selector).screenshot({ path: kept });
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  await copyFile(kept, join(root, 'docs', 'screenshots', `${name}.png`));
}

describe('new and returning people, retention and first touch on the dashboard', () => {
  test('shows the API’s figures: the Returning tile, the new and returning chart, the cohorts and the first touches', async () => {
    await resetPage(page, { cookies: [], viewport: { width: 1280, height: 900 } });
    const troubles = pageTroubles(page);
    await page.goto(`${t.host.url}/api/admin`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#key', t.env.OPERATOR_KEY!);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#dashboard[data-state="ready"]');

    // The tile: the period's returning people, and its new ones beside them.
    const card = await adminRead(t, '/api/admin/activity?days=30');
    expect(card.headline.returning).toBeGreaterThan(0);
    expect(await page.textContent('[data-figure="returning"] .figure')).toBe(String(card.headline.returning));
    expect(await page.textContent('[data-figure="returning"] .change')).toMatch(new RegExp(`^${card.headline.people_new} new; `));

    // The chart: new and returning each day, stacked, as by_day says.
    await page.click('[data-chart="main"] [data-pick-figure="returning"]');
    await page.waitForFunction(() => document.querySelector('#main-caption')?.textContent?.startsWith('New and returning'));
    expect((await paintedPixels(page)).main).toBeGreaterThan(500);
    const drawn = await rowsOf('[data-chart="main"] .alt table');
    expect(drawn.map((row) => row.slice(1).map(Number))).toEqual(card.by_day.map((day: any) => [day.people_new, day.returning]));
    await shot('new-and-returning');

    // Retention, beside the count since counting began: a row a cohort month, its people and each month's share, as the API answers.
    const retention = await adminRead(t, '/api/admin/retention?months=12');
    const months = await rowsOf('#retention-months');
    // The months before the first person was counted are left out; a cohort of nobody after it has dashes.
    const shown = retention.cohorts.slice(retention.cohorts.findIndex((c: any) => c.people > 0));
    expect(months.map((row) => row[1])).toEqual(shown.map((c: any) => c.people.toLocaleString('en-GB')));
    expect(months.map((row) => row.slice(2).filter(Boolean))).toEqual(
      shown.map((c: any) => c.months.map((m: any) => (c.people === 0 ? '–' : `${Math.round(m.share * 100)}%`))),
    );
    // Imported history counts: May to October each have people first counted in them, and some came back.
    const counted = retention.cohorts.filter((c: any) => c.people > 0).map((c: any) => c.cohort);
    expect(counted).toEqual(['2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10'].filter((month) => counted.includes(month)));
    expect(counted.length).toBeGreaterThanOrEqual(5);
    expect(retention.cohorts.some((c: any) => c.months.slice(1).some((m: any) => m.people > 0))).toBe(true);
    await page.click('#tab-retention-months');
    await page.locator('#all-time').scrollIntoViewIfNeeded();
    await panelShot('#all-time', 'retention');
    await page.click('#tab-retention-weeks');
    expect((await rowsOf('#retention-weeks')).map((row) => row[1])).toEqual(
      retention.weeks.map((c: any) => c.people.toLocaleString('en-GB')),
    );
    await page.click('#tab-all-count');

    // First touch: each goal's people and conversions by where they first came from, and their days to convert.
    await page.click('#tab-first-touch');
    const signup = card.goals.find((goal: any) => goal.goal === 'signup');
    expect(signup.first_touch.sources.length).toBeGreaterThan(1);
    const sources = await rowsOf('#first-touch-signup');
    expect(sources.map((row) => row.slice(1))).toEqual(
      signup.first_touch.sources.map((row: any) => [String(row.people), String(row.conversions)]),
    );
    const days = await rowsOf('#first-touch-body .days-to-convert');
    expect(days[0]!.slice(1).map(Number)).toEqual(
      ['0', '1', '2-7', '8-30', '31+'].map((bucket) => signup.first_touch.days_to_convert[bucket]),
    );
    await page.locator('#goals').scrollIntoViewIfNeeded();
    await panelShot('#goals', 'first-touch');

    expect(await axeViolations(page)).toEqual([]);
    expect(troubles).toEqual([]);
  });

  test('the Returning tile agrees with the chart over the same days: all time, for one day and under a filter', async () => {
    const troubles = pageTroubles(page);
    /** The tile's figure and the chart's returning bars, as the page shows them for the address's view. */
    const shown = async (query: string) => {
      await page.goto(`${t.host.url}/api/admin?${query}`);
      await page.waitForSelector('#dashboard[data-state="ready"]');
      await page.click('[data-chart="main"] [data-pick-figure="returning"]');
      await page.waitForFunction(() => document.querySelector('#main-caption')?.textContent?.startsWith('New and returning'));
      const tile = Number((await page.textContent('[data-figure="returning"] .figure'))!.replace(/,/g, ''));
      const bars = (await rowsOf('[data-chart="main"] .alt table')).map((row) => Number(row[2]!.replace(/,/g, '')));
      return { tile, bars };
    };
    const sum = (bars: number[]) => bars.reduce((total, bar) => total + bar, 0);

    // All time, every person was first counted within the period, and many came back on a later day: the tile counts
    // them once, so it is at least the largest bar and at most all the bars together.
    const all = await shown('period=all');
    const card = await adminRead(t, '/api/admin/activity?days=all');
    expect(all.bars).toEqual(card.by_day.map((day: any) => day.returning));
    expect(all.tile).toBe(card.headline.returning);
    expect(Math.max(...all.bars)).toBeGreaterThan(0);
    expect(all.tile).toBeGreaterThanOrEqual(Math.max(...all.bars));
    expect(all.tile).toBeLessThanOrEqual(sum(all.bars));

    // A day's tile is that day's bar.
    const busiest = all.bars.indexOf(Math.max(...all.bars));
    const day = card.by_day[busiest].day;
    expect((await shown(`from=${day}&to=${day}`)).tile).toBe(all.bars[busiest]);

    // Under a filter, no figure passes the whole site's: the tile, nor any day's bar.
    const signup = await shown('period=all&filter=page:/signup');
    expect(signup.tile).toBeGreaterThan(0);
    expect(signup.tile).toBeLessThan(all.tile);
    expect(signup.tile).toBeGreaterThanOrEqual(Math.max(...signup.bars));
    signup.bars.forEach((bar, index) => expect(bar).toBeLessThanOrEqual(all.bars[index]!));
    expect(troubles).toEqual([]);
  });

  test('follows the filter: one filter shows its retention as the API answers it, two show theirs', async () => {
    const troubles = pageTroubles(page);
    await page.goto(`${t.host.url}/api/admin?period=30d&filter=source:linkedin`);
    await page.waitForSelector('#dashboard[data-state="ready"]');
    const retention = await adminRead(t, '/api/admin/retention?months=12&filter=source:linkedin');
    const whole = await adminRead(t, '/api/admin/retention?months=12');
    // A filter keeps the cohorts whole and counts in each month only those who came by LinkedIn: some, not all.
    expect(retention.cohorts.map((c: any) => c.people)).toEqual(whole.cohorts.map((c: any) => c.people));
    const cells = (answer: any) => answer.cohorts.flatMap((c: any) => c.months.map((m: any) => m.people));
    expect(cells(retention).some((people: number) => people > 0)).toBe(true);
    expect(cells(retention)).not.toEqual(cells(whole));
    const shown = retention.cohorts.slice(retention.cohorts.findIndex((c: any) => c.people > 0));
    await page.click('#tab-retention-months');
    expect((await rowsOf('#retention-months')).map((row) => row.slice(2).filter(Boolean))).toEqual(
      shown.map((c: any) => c.months.map((m: any) => (c.people === 0 ? '–' : `${Math.round(m.share * 100)}%`))),
    );

    expect(retention.weeks).toBeNull();
    await page.click('#tab-retention-weeks');
    expect(await page.textContent('#retention-weeks-body')).toContain('kept without filters only');

    // Two filters are answered whole too: the same table as the API's cohorts.
    await page.goto(`${t.host.url}/api/admin?period=30d&filter=source:linkedin&filter=page:/signup`);
    await page.waitForSelector('#dashboard[data-state="ready"]');
    const both = await adminRead(t, '/api/admin/retention?months=12&filter=source:linkedin&filter=page:/signup');
    await page.click('#tab-retention-months');
    await page.waitForSelector('#retention-months');
    const bothShown = both.cohorts.slice(both.cohorts.findIndex((c: any) => c.people > 0));
    expect((await rowsOf('#retention-months')).map((row) => row.slice(2).filter(Boolean))).toEqual(
      bothShown.map((c: any) => c.months.map((m: any) => (c.people === 0 ? '–' : `${Math.round(m.share * 100)}%`))),
    );
    expect(troubles).toEqual([]);
  });
});
