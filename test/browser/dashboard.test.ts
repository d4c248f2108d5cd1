import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContextOptions, Cookie, Page } from 'playwright-core';
import { containerOf } from '../support/cosmos';
import { DIMENSION_TABLE } from '../../shared/core/dimensions';
import { startTestHost, type TestHost } from '../support/host';
import { adminRead, HOSTILE_HITS, HOSTILE_HOST, HOSTILE_PATH, keep, NOW, seededHost } from './fixture';
import { axeViolations, closeContexts, pageTroubles, paintedPixels, resetPage, screenshot, workerChromium } from './support';

// The Admin dashboard in headless Chromium, against a host that kept the fixture's week: the period picker at the top,
// every panel following the period and the filters, the filters in the address, "now" reading itself again, and the
// page's size, words and accessibility. Every figure shown is compared with what the API answers for the same query.

let t: TestHost;
/** A second seeded host, that has also kept a visitor's hostile path and link: what a visitor controls, shown as text. */
let h: TestHost;
let stopped = false;
let browser: Browser;
/**
 * The tests' pages, one per set of context options, each brought back to a known state by the test that takes it
 * (`reset`): a new context or page would start a renderer of its own and read every asset again. `signed` keeps the
 * page's policy; `bypassing` bypasses it, so axe can be injected and markup set as HTML would run; `phone` is a phone's
 * screen (375 px, twice as dense, touch).
 */
let signed: Page;
let bypassing: Page;
let phone: Page;
/** Each host's session: the cookies of signing in to it once from the keyboard. */
let session: Cookie[];
let hostileSession: Cookie[];
const SIGNED_OUT: Cookie[] = [];

/** The fixture's goal, so the conversions tile and the goals panel have something to show. */
const GOALS = 'about=path:/about,/about/';

async function hostileHost(): Promise<TestHost> {
  const host = await seededHost();
  await keep(host, HOSTILE_HITS);
  return host;
}

async function sessionOf(page: Page, host: TestHost): Promise<Cookie[]> {
  await signIn(page, host.host.url, host.env.OPERATOR_KEY!);
  await signedIn(page);
  return page.context().cookies();
}

const pageWith = async (options: BrowserContextOptions) => (await browser.newContext(options)).newPage();

beforeAll(async () => {
  [t, h, browser] = await Promise.all([seededHost({ GOALS }), hostileHost(), workerChromium()]);
  [signed, bypassing, phone] = await Promise.all([
    pageWith({}),
    pageWith({ bypassCSP: true }),
    pageWith({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true }),
  ]);
  [session, hostileSession] = await Promise.all([sessionOf(signed, t), sessionOf(bypassing, h)]);
});

afterAll(async () => {
  await closeContexts(browser);
  await h?.stop();
  if (!stopped) await t?.stop();
});

/** Opens the dashboard (at `path`, which may keep a view) and signs in from the keyboard. */
async function signIn(page: Page, url: string, key: string, path = '/api/admin'): Promise<void> {
  await page.goto(`${url}${path}`);
  await typeKey(page, key);
}

/** Signs in from the keyboard: Tab past the skip link to the key, type it, Enter. */
async function typeKey(page: Page, key: string): Promise<void> {
  await page.waitForSelector('body[data-ready="true"]');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
}

/** Waits until the signed-in dashboard has drawn its read, whether or not every read succeeded. */
const signedIn = (page: Page) => page.waitForSelector('#dashboard[data-state="ready"], #dashboard[data-state="partial"]');

/** The viewports: Playwright's default, the first screen a desk shows (1280×800), and a phone's. */
const DEFAULT = { width: 1280, height: 720 };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

const reset = (page: Page, cookies: Cookie[], viewport = DEFAULT) => resetPage(page, { cookies, viewport });

/** Opens the seeded host's dashboard (at `path`, which may keep a view) on a page that holds the session. */
const open = (page: Page, path = '/api/admin') => page.goto(`${t.host.url}${path}`);

/** A tile's figure as the page shows it: a number, or null for the dash of an unread figure. */
async function tileFigure(page: Page, name: string): Promise<number | null> {
  const text = (await page.textContent(`[data-figure="${name}"] .figure`))!.trim();
  return text === '–' ? null : Number(text.replace(/,/g, ''));
}
const change = (page: Page, name: string) => page.textContent(`[data-figure="${name}"] .change`);

/** A table's body rows as the page shows them, every cell's text (the row's header cell first). */
function rowsOf(page: Page, table: string): Promise<string[][]> {
  return page.$$eval(`${table} tbody tr`, (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));
}

/** The rows of a chart's text alternative (the visually hidden table). */
const chartRows = (page: Page, chart: string) => rowsOf(page, `[data-chart="${chart}"] .alt table`);

/** A figure as the page writes it. */
const n = (value: number) => value.toLocaleString('en-GB');

/** Seconds as the Pages panel writes a time on page. */
const durationWords = (seconds: number) =>
  seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A day of the fixture's year in the dashboard's words: 2026-10-18 is "18 Oct", a day of another year has its year. */
const dayWords = (day: string) =>
  `${Number(day.slice(8))} ${MONTHS[Number(day.slice(5, 7)) - 1]}${day.startsWith('2026') ? '' : ` ${day.slice(0, 4)}`}`;

/** The page's next read of the card, of the day's visitors, and of now. */
const readOf = (page: Page, pathname: string) => page.waitForRequest((request) => new URL(request.url()).pathname === pathname);
const cardRead = (page: Page) => readOf(page, '/api/admin/activity');
const dayRead = (page: Page) => readOf(page, '/api/admin/activity/visitors');
const nowRead = (page: Page) => readOf(page, '/api/admin/now');

/** The card's query, as the dashboard writes it, for a period and filters. */
const query = (period: Record<string, string>, filters: string[] = []) =>
  new URLSearchParams([...Object.entries(period), ...filters.map((filter) => ['filter', filter])]).toString();

/** Waits until the dashboard has drawn the card read with this query. */
const shown = (page: Page, card: string) =>
  page.waitForSelector(`#dashboard[data-period="${card}"]:is([data-state="ready"], [data-state="partial"])`);

/** Picks a period by its chip, and gives the address of the card's read that it made. */
async function pick(page: Page, name: string): Promise<URL> {
  const [request] = await Promise.all([cardRead(page), page.click(`#period-form label:has(input[value="${name}"])`)]);
  return new URL(request.url());
}

const checkedPeriod = (page: Page) =>
  page.$$eval('input[name="period"]', (radios) => (radios as HTMLInputElement[]).filter((r) => r.checked).map((r) => r.value));

/** The chips of the filters, as they read. */
const chips = (page: Page) => page.$$eval('#filter-list .chip-words', (words) => words.map((word) => word.textContent));

/** The named periods: the address's name, the key that picks it, the card's days, and the words the page says. */
const PICKS = [
  ['today', 't', '1', 'today', 'the day before'],
  ['7d', 'w', '7', 'the last 7 days', 'the 7 days before'],
  ['30d', 'm', '30', 'the last 30 days', 'the 30 days before'],
  ['90d', 'q', '90', 'the last 90 days', 'the 90 days before'],
  ['12m', 'y', '365', 'the last 12 months', 'the 12 months before'],
] as const;

const SOURCE_NAMES: Record<string, string> = {
  linkedin: 'LinkedIn',
  github: 'GitHub',
  search: 'Search engines',
  other: 'Other sites',
  typed: 'Direct (typed or unknown)',
};
const MAKERS: Record<string, string> = {
  chrome: 'Chrome',
  firefox: 'Firefox',
  safari: 'Safari',
  windows: 'Windows',
  linux: 'Linux',
  ios: 'iOS',
  macos: 'macOS',
  desktop: 'Desktop',
  mobile: 'Mobile',
};
const COUNTRIES: Record<string, string> = { DE: 'Germany', FR: 'France', JP: 'Japan', GB: 'United Kingdom', XX: 'Unknown' };
const campaign = (c: any) => [c.source ?? '(no source)', c.medium ?? '(no medium)', c.campaign ?? '(no campaign)'].join(' / ');

/** Every list of the period's panels, as the card answers it and as the page should show it. */
function panelsOf(card: any): Record<string, string[][]> {
  return {
    pages: card.pages.map((p: any) => [
      p.path,
      n(p.page_loads),
      n(p.people),
      p.time_on_page === null ? '–' : durationWords(p.time_on_page),
      p.scroll_depth === null ? '–' : `${p.scroll_depth}%`,
    ]),
    'entry-pages': card.entry_pages.map((p: any) => [p.path, n(p.people)]),
    'exit-pages': card.exit_pages.map((p: any) => [p.path, n(p.people)]),
    sources: Object.keys(SOURCE_NAMES)
      .filter((group) => card.sources[group] > 0)
      .sort((a, b) => card.sources[b] - card.sources[a])
      .map((group) => [SOURCE_NAMES[group]!, n(card.sources[group])]),
    referrers: card.referrers.map((r: any) => [r.host, n(r.page_loads), n(r.people)]),
    campaigns: card.campaigns.map((c: any) => [campaign(c), n(c.page_loads)]),
    countries: card.countries.map((c: any) => [COUNTRIES[c.country] ?? c.country, n(c.visitor_days)]),
    browsers: card.devices.browsers.map((b: any) => [MAKERS[b.name] ?? b.name, n(b.visitor_days)]),
    systems: card.devices.systems.map((b: any) => [MAKERS[b.name] ?? b.name, n(b.visitor_days)]),
    devices: card.devices.types.map((b: any) => [MAKERS[b.name] ?? b.name, n(b.visitor_days)]),
    goals: card.goals.map((g: any) => [g.goal, n(g.conversions), `${(g.rate * 100).toFixed(1)}%`, n(g.people_all_time)]),
    events: card.events.map((e: any) => [e.event, n(e.count), n(e.visitor_days), '']),
    path: card.path.map((s: any) => [`${s.step} (${s.paths.join(', ')})`, n(s.visitor_days)]),
  };
}

/** The same lists as the page shows them (a list with no rows is empty). */
async function panelsShown(page: Page): Promise<Record<string, string[][]>> {
  const shownLists: Record<string, string[][]> = {};
  for (const list of [
    'pages',
    'entry-pages',
    'exit-pages',
    'sources',
    'referrers',
    'campaigns',
    'countries',
    'browsers',
    'systems',
    'devices',
    'goals',
    'events',
    'path',
  ])
    shownLists[list] = await rowsOf(page, `#${list}-table`);
  return shownLists;
}

/** The tiles of the period as the card answers them. */
const tilesOf = (card: any) => ({
  people: Math.round(card.people_in_period.estimate),
  visits: card.headline.visits,
  page_loads: card.headline.page_loads,
  conversions: card.headline.conversions,
});
const tilesShown = async (page: Page) => ({
  people: await tileFigure(page, 'people'),
  visits: await tileFigure(page, 'visits'),
  page_loads: await tileFigure(page, 'page_loads'),
  conversions: await tileFigure(page, 'conversions'),
});

/** Everything of the period the page shows, beside what the API answers for the same query. */
async function expectTheCard(page: Page, card: string) {
  const answer = await adminRead(t, `/api/admin/activity?${card}`);
  expect(await panelsShown(page)).toEqual(panelsOf(answer));
  expect(await tilesShown(page)).toEqual(tilesOf(answer));
  const run = answer.by_day ?? answer.by_month;
  // One day is drawn by its local clock hours.
  const rows =
    run.length === 1 && answer.by_hour
      ? answer.by_hour.map((h: any) => [h.hour, n(h.requests)])
      : run.map((d: any) => [d.day ?? d.month, n(d.people)]);
  expect((await chartRows(page, 'main')).map((row) => row.slice(0, 2))).toEqual(rows);
  return answer;
}

/**
 * Answers the page's reads of one Admin path with a body made here instead of the app's: the contract's shapes the
 * fixture's week cannot make (two years of months, a day of more than 100 visitors, hostile text in every list).
 */
async function answer(page: Page, pathname: string, body: (url: URL) => unknown): Promise<void> {
  await page.route(
    (url) => url.pathname === pathname,
    (route) => route.fulfill({ json: body(new URL(route.request().url())) }),
  );
}

/** One row of a day's visitors as the API answers it. */
const visitorRow = (i: number, fields: Record<string, unknown> = {}) => ({
  token: `${String(i).padStart(8, '0')}aaaaaaaaaaaaaaaaaaaaaaaa`,
  network: '203.0.113.x',
  store: 'site',
  kind: 'people',
  left_out: null,
  first_seen: '2026-10-23T09:00:00.000Z',
  last_seen: '2026-10-23T09:05:00.000Z',
  requests: 2,
  bots: 0,
  self: 0,
  page_loads: 2,
  top_paths: [{ path: '/', requests: 2 }],
  sources: [],
  ...fields,
});

/** Every dialog the page opened, and every element or attribute that markup in a visitor's text would have made. */
function dialogsOf(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}
const injected = (page: Page) =>
  page.$$eval('body img, body script, #dashboard b, header b, [onerror], [onmouseover], [onclick]', (nodes) => nodes.length);

describe('the period: picked at the top, kept in the address, and followed by every panel', () => {
  test('picks each named period by its chip: the address keeps it, the card is read with its days, and every panel, tile and the main chart show what it answers', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);
    expect(await checkedPeriod(page)).toEqual(['30d']);
    expect(await page.getAttribute('#dashboard', 'data-period')).toBe('days=30');
    const firstCanvas = (await page.$('[data-chart="main"] canvas'))!;
    for (const [name, , days, words, before] of PICKS) {
      const asked = await pick(page, name);
      expect(asked.search).toBe(`?days=${days}`);
      expect(new URL(page.url()).search).toBe(`?period=${name}`);
      await shown(page, `days=${days}`);
      expect(await checkedPeriod(page)).toEqual([name]);
      const card = await expectTheCard(page, `days=${days}`);
      const hourly = days === '1';
      expect(await chartRows(page, 'main')).toHaveLength(hourly ? card.by_hour.length : Number(days));
      expect(await page.textContent('#main-caption')).toBe(
        `${hourly ? 'Requests each hour' : 'Visits each day'}, ${words}, and ${before} (faint)`,
      );
      // The chart is redrawn with the period's days on the canvas it was first drawn on.
      expect(await firstCanvas.evaluate((canvas) => canvas.isConnected)).toBe(true);
      expect(await firstCanvas.evaluate((canvas) => (window as any).Chart.getChart(canvas).data.labels.length)).toBe(
        hourly ? card.by_hour.length : Number(days),
      );
      // The export follows the period: its days, in the dashboard's words.
      expect(await page.textContent('#export-words')).toBe(`${dayWords(card.from)} to ${dayWords(card.to)}`);
      expect(await page.textContent('#period-message')).toBe(
        card.from === card.to ? `${dayWords(card.from)}, a UTC day` : `${dayWords(card.from)} to ${dayWords(card.to)}, UTC days`,
      );
    }
    // Today differs from the week: the panels above did follow.
    const today = await adminRead(t, '/api/admin/activity?days=1');
    const week = await adminRead(t, '/api/admin/activity?days=7');
    expect(panelsOf(today).pages).not.toEqual(panelsOf(week).pages);
    expect(await page.textContent('#left-out')).toBe('Left out today: 2 crawlers by agent.');

    // The chips are one radio group: an arrow key picks the one beside.
    await page.focus('input[name="period"][value="12m"]');
    const [left] = await Promise.all([cardRead(page), page.keyboard.press('ArrowLeft')]);
    expect(new URL(left.url()).search).toBe('?days=90');
    await shown(page, 'days=90');
    // Back is the period before.
    const [back] = await Promise.all([cardRead(page), page.goBack()]);
    expect(new URL(back.url()).search).toBe('?days=365');
    await shown(page, 'days=365');
    expect(await checkedPeriod(page)).toEqual(['12m']);
    expect(troubles).toEqual([]);
  });

  test("keys pick the periods as Plausible's do (t, w, m, q, y, a, c), never while a field is being typed in", async () => {
    const page = await reset(signed, session);
    await open(page);
    await signedIn(page);
    for (const [name, key, days] of [...PICKS].reverse()) {
      const [asked] = await Promise.all([cardRead(page), page.keyboard.press(key)]);
      expect(new URL(asked.url()).search, key).toBe(`?days=${days}`);
      await shown(page, `days=${days}`);
      expect(await checkedPeriod(page)).toEqual([name]);
    }
    const [all] = await Promise.all([cardRead(page), page.keyboard.press('a')]);
    expect(new URL(all.url()).search).toBe('?days=all');
    await shown(page, 'days=all');
    // c opens the range, its first day in focus; a key typed there is a character, not a period.
    await page.keyboard.press('c');
    expect(await page.isVisible('#range-form')).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('range-from');
    await page.keyboard.press('w');
    expect(await page.inputValue('#range-from')).toContain('w');
    expect(new URL(page.url()).search).toBe('?period=all');
    await page.keyboard.press('Escape');
    expect(await page.isVisible('#range-form')).toBe(false);
    // The keys are documented on the page and on the chips.
    expect(await page.getAttribute('input[value="7d"]', 'aria-keyshortcuts')).toBe('w');
    expect(await rowsOf(page, '#help table.keys')).toEqual([
      ['t', 'today'],
      ['w', 'the last 7 days'],
      ['m', 'the last 30 days'],
      ['q', 'the last 90 days'],
      ['y', 'the last 12 months'],
      ['a', 'all time'],
      ['c', 'a custom range of days (Esc closes it)'],
    ]);
  });

  test('all time and a custom range: the address keeps them, the card is read with days=all or from and to, and a range the wrong way round is refused in words', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);
    expect((await pick(page, 'all')).search).toBe('?days=all');
    expect(new URL(page.url()).search).toBe('?period=all');
    await shown(page, 'days=all');
    const whole = await expectTheCard(page, 'days=all');
    expect(await page.textContent('#main-caption')).toBe(`Visits each day, since ${dayWords(whole.from)}`);
    // Nothing was counted before all time: no change is said.
    expect(await change(page, 'visits')).toBe('');

    await page.click('#period-form label:has(#period-custom)');
    expect(await page.isVisible('#range-form')).toBe(true);
    await page.fill('#range-from', '2026-10-18');
    await page.fill('#range-to', '2026-10-21');
    const [ranged] = await Promise.all([cardRead(page), page.click('#range-button')]);
    expect(new URL(ranged.url()).search).toBe('?from=2026-10-18&to=2026-10-21');
    expect(new URL(page.url()).search).toBe('?from=2026-10-18&to=2026-10-21');
    await shown(page, 'from=2026-10-18&to=2026-10-21');
    expect(await checkedPeriod(page)).toEqual(['custom']);
    expect(await page.textContent('#custom-words')).toBe('18 Oct to 21 Oct');
    await expectTheCard(page, 'from=2026-10-18&to=2026-10-21');
    expect(await page.textContent('#left-out')).toBe('Left out on 21 Oct: nobody.');
    expect(await change(page, 'visits')).toBe('new (none in the 4 days before)');

    await page.click('#period-form label:has(#period-custom)');
    await page.fill('#range-from', '2026-10-22');
    await page.click('#range-button');
    await page.waitForSelector('#period-message.bad');
    expect(await page.textContent('#period-message')).toBe('The first day of the range must not be after the last.');
    expect(new URL(page.url()).search).toBe('?from=2026-10-18&to=2026-10-21');
    expect(troubles).toEqual([]);
  });

  test('a bookmarked view comes back on sign-in and on reload; an address it cannot read shows the last 30 days and says so', async () => {
    const page = await reset(signed, SIGNED_OUT);
    const troubles = pageTroubles(page);
    const [asked] = await Promise.all([
      cardRead(page),
      signIn(page, t.host.url, t.env.OPERATOR_KEY!, '/api/admin?period=90d&filter=country:DE'),
    ]);
    expect(new URL(asked.url()).search).toBe(`?${query({ days: '90' }, ['country:DE'])}`);
    await shown(page, query({ days: '90' }, ['country:DE']));
    expect(await checkedPeriod(page)).toEqual(['90d']);
    expect(await chips(page)).toEqual(['Country is Germany']);

    const [again] = await Promise.all([cardRead(page), page.reload()]);
    expect(new URL(again.url()).search).toBe(`?${query({ days: '90' }, ['country:DE'])}`);
    await shown(page, query({ days: '90' }, ['country:DE']));
    expect(await chips(page)).toEqual(['Country is Germany']);

    for (const [address, why] of [
      ['?period=5y', 'The address names a period the dashboard does not know, so the last 30 days are shown.'],
      [
        '?from=2026-02-30&to=2026-03-01',
        'The address has no readable range (from and to, as YYYY-MM-DD, the first not after the last), so the last 30 days are shown.',
      ],
      ['?filter=colour:red', 'The address has a filter the dashboard cannot read (colour:red), so it is left out.'],
    ]) {
      const [fallback] = await Promise.all([cardRead(page), page.goto(`${t.host.url}/api/admin${address}`)]);
      expect(new URL(fallback.url()).search, address).toBe('?days=30');
      await shown(page, 'days=30');
      expect(await page.textContent('#period-message.bad')).toBe(why);
      expect(await checkedPeriod(page)).toEqual(['30d']);
    }
    expect(troubles).toEqual([]);
  });

  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['375', PHONE],
  ] as const) {
    test(`at ${label} px the picker is at the top, and still in view, uncovered, once the page is scrolled to its end`, async () => {
      const page = await reset(label === '375' ? phone : signed, session, viewport);
      await open(page);
      await signedIn(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      const top = (await page.locator('#period-form').boundingBox())!;
      const headline = (await page.locator('#headline').boundingBox())!;
      expect(top.y).toBeLessThan(headline.y);
      expect(top.y + top.height).toBeLessThanOrEqual(label === '375' ? 120 : 80);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
      const scrolled = (await page.locator('#period-form').boundingBox())!;
      expect(scrolled.y).toBeGreaterThanOrEqual(0);
      expect(scrolled.y + scrolled.height).toBeLessThanOrEqual(viewport.height);
      // The chip under its middle is the picker's own, not a panel scrolled over it.
      expect(
        await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('#period-form') !== null, {
          x: scrolled.x + 30,
          y: scrolled.y + scrolled.height / 2,
        }),
      ).toBe(true);
      // A key still picks a period down there, and the page stays where it was read.
      const [asked] = await Promise.all([cardRead(page), page.keyboard.press('w')]);
      expect(new URL(asked.url()).search).toBe('?days=7');
    });
  }
});

describe('the first screen, the panels and their size', () => {
  test('the tiles, the people all time beside the period, now, and the main chart with the period before as its faint second series', async () => {
    const page = await reset(signed, session, DESKTOP);
    const troubles = pageTroubles(page);
    await open(page, '/api/admin?period=7d');
    await shown(page, 'days=7');
    const card = await adminRead(t, '/api/admin/activity?days=7');
    const people = await adminRead(t, '/api/admin/visitors/people');
    const now = await adminRead(t, '/api/admin/now');
    expect(Math.round(card.people_in_period.estimate)).toBe(4);
    expect(card.headline).toMatchObject({ visits: 8, page_loads: 14, conversions: 3 });
    expect(await tilesShown(page)).toEqual(tilesOf(card));
    // The period before had nobody: every figure is new. 0 is a number.
    for (const name of ['people', 'visits', 'page_loads', 'conversions'])
      expect(await change(page, name)).toBe('new (none in the 7 days before)');
    expect(await tileFigure(page, 'people_all_time')).toBe(people.people_all_time);
    expect(await change(page, 'people_all_time')).toBe('since 18 Oct');
    expect(await page.textContent('[data-figure="people_all_time"] .tile-name')).toBe('People, all time');
    expect(await tileFigure(page, 'now')).toBe(now.people_last_30_minutes);
    expect(await page.textContent('#now-title')).toBe('Now not of the period');

    // The main chart: visits each day, beside the 7 days before, faint; pageviews when its tile is pressed.
    expect(await chartRows(page, 'main')).toEqual(
      card.by_day.map((d: any, i: number) => [d.day, n(d.people), n(card.previous.by_day[i].people)]),
    );
    expect(await page.getAttribute('[data-pick-figure="visits"]', 'aria-pressed')).toBe('true');
    const datasets = () =>
      page.evaluate(() => {
        const chart = (window as any).Chart.getChart(document.querySelector('[data-chart="main"] canvas'));
        return chart.data.datasets.map((d: any) => ({ label: d.label, data: d.data, dashed: Boolean(d.borderDash) }));
      });
    expect(await datasets()).toEqual([
      { label: 'Visits, the last 7 days', data: card.by_day.map((d: any) => d.people), dashed: false },
      { label: 'Visits, the 7 days before', data: card.previous.by_day.map((d: any) => d.people), dashed: true },
    ]);
    await page.click('[data-pick-figure="page_loads"]');
    expect(await page.getAttribute('[data-pick-figure="page_loads"]', 'aria-pressed')).toBe('true');
    expect(await page.textContent('#main-caption')).toBe('Pageviews each day, the last 7 days, and the 7 days before (faint)');
    expect((await datasets())[0]!.data).toEqual(card.by_day.map((d: any) => d.page_loads));
    // Every visitor by kind: bots and your own visits stacked on the people.
    await page.click('[data-pick-figure="kinds"]');
    expect(await page.textContent('#main-caption')).toBe('Every visitor each day by kind, the last 7 days');
    expect(await chartRows(page, 'main')).toEqual(card.by_day.map((d: any) => [d.day, d.people, d.scanners, d.self, d.total].map(n)));
    await page.click('[data-pick-figure="visits"]');

    // A click on a day's point makes that day the period.
    const point = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-chart="main"] canvas')!;
      const chart = (window as any).Chart.getChart(canvas);
      const index = (chart.data.labels as string[]).indexOf('21 Oct');
      const { x, y } = chart.getDatasetMeta(0).data[index];
      const box = canvas.getBoundingClientRect();
      return { x: box.left + x, y: box.top + y };
    });
    const [day] = await Promise.all([cardRead(page), page.mouse.click(point.x, point.y)]);
    expect(new URL(day.url()).search).toBe('?from=2026-10-21&to=2026-10-21');
    await shown(page, 'from=2026-10-21&to=2026-10-21');
    expect(await page.textContent('#custom-words')).toBe('21 Oct');
    await expectTheCard(page, 'from=2026-10-21&to=2026-10-21');
    expect(troubles).toEqual([]);
  });

  test('the tiles and the main chart are above the fold at 1280×800; the page is at most 2.5 screens tall there and 6 at 375×812', async () => {
    const page = await reset(signed, session, DESKTOP);
    await open(page);
    await signedIn(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const part of ['#tiles', '[data-chart="main"] canvas']) {
      const box = (await page.locator(part).boundingBox())!;
      expect(box.y + box.height, part).toBeLessThanOrEqual(DESKTOP.height);
    }
    const tall = () => page.evaluate(() => document.documentElement.scrollHeight);
    expect((await tall()) / DESKTOP.height).toBeLessThanOrEqual(2.5);
    const small = await reset(phone, session, PHONE);
    await open(small);
    await signedIn(small);
    expect((await small.evaluate(() => document.documentElement.scrollHeight)) / PHONE.height).toBeLessThanOrEqual(6);
  });

  test('each panel shows its top ten and the rest behind "Show all", its tabs move with the arrow keys, and its explanation is behind its info control', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    const base = await adminRead(t, '/api/admin/activity?days=30');
    const paths = Array.from({ length: 12 }, (_, i) => `/notes/${i + 1}`);
    await answer(page, '/api/admin/activity', () => ({
      ...base,
      pages: paths.map((path, i) => ({ path, page_loads: 12 - i, people: 12 - i })),
    }));
    await open(page);
    await signedIn(page);
    expect(await page.$$eval('#pages-table tbody tr:not([hidden])', (rows) => rows.length)).toBe(10);
    const toggle = page.locator('#pages button[aria-controls="pages-table"]');
    expect(await toggle.textContent()).toBe('Show all 12');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await page.$$eval('#pages-table tbody tr:not([hidden])', (rows) => rows.length)).toBe(12);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await toggle.textContent()).toBe('Show the first 10');

    // Tabs: a click, or the arrow keys, show one list and hide the others.
    expect(await page.isVisible('#sources-body')).toBe(true);
    expect(await page.isVisible('#referrers-body')).toBe(false);
    await page.click('#tab-referrers');
    expect(await page.isVisible('#referrers-body')).toBe(true);
    expect(await page.isVisible('#sources-body')).toBe(false);
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-campaigns');
    expect(await page.getAttribute('#tab-campaigns', 'aria-selected')).toBe('true');
    expect(await page.isVisible('#campaigns-body')).toBe(true);
    await page.keyboard.press('Home');
    expect(await page.isVisible('#sources-body')).toBe(true);

    // An explanation is behind each panel's info control, not on the page until asked for.
    const panels = await page.$$eval('#dashboard .grid > section', (sections) => sections.map((section) => section.id));
    expect(panels).toEqual(['pages', 'sources', 'countries', 'devices', 'goals', 'now', 'subjects', 'all-time']);
    for (const panel of panels) {
      expect(await page.isVisible(`#${panel} .info p`), panel).toBe(false);
      await page.click(`#${panel} .info summary`);
      expect(await page.isVisible(`#${panel} .info p`), panel).toBe(true);
      await page.click(`#${panel} .info summary`);
    }
    // The glossary is in the help at the end, closed until opened.
    expect(await page.isVisible('#help .glossary')).toBe(false);
    await page.click('#help summary');
    expect(await page.$$eval('#help .glossary dt', (terms) => terms.map((term) => term.textContent))).toEqual([
      'Visitor',
      'People',
      'Visit',
      'Pageview',
      'Request',
      'Bots and scanners',
      'Your own visits',
      'Conversion',
      'Entry page',
      'Filter',
    ]);
    // One meaning of a visit, the same in the glossary and on its tile: a person's day, so people never outnumber visits.
    const visit = await page.$eval('#help .glossary div:has(> dt:text-is("Visit")) dd', (dd) => dd.textContent ?? '');
    expect(visit).toContain('two browsers on one address are two visits');
    expect(await page.getAttribute('[data-figure="visits"]', 'title')).toContain(
      "an address and a browser on one day of the site's time zone",
    );
    expect(troubles).toEqual([]);
  });

  test('two columns of panels at 1280 px and one at 375 px, with nothing wider than the phone', async () => {
    const columns = async (page: Page) =>
      page.$$eval(
        '#dashboard .grid > section',
        (sections) => new Set(sections.map((s) => Math.round(s.getBoundingClientRect().left))).size,
      );
    const desk = await reset(signed, session, DESKTOP);
    await open(desk);
    await signedIn(desk);
    expect(await columns(desk)).toBe(2);
    const small = await reset(phone, session, PHONE);
    await open(small);
    await signedIn(small);
    expect(await columns(small)).toBe(1);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

describe('a click filters every panel', () => {
  test('a click on a page, Enter on a country and a click on a site each add a chip, keep it in the address and read every panel with it; × and Clear restore the view; Back and Forward step through', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);
    const plain = await panelsShown(page);

    // A click anywhere on a page's row: the chip, the address, the card's read, and every panel as the API answers it.
    const [byPage] = await Promise.all([cardRead(page), page.click('#pages-table tr:has(button.filter:text-is("/about")) td >> nth=0')]);
    expect(new URL(byPage.url()).searchParams.getAll('filter')).toEqual(['page:/about']);
    expect(new URL(page.url()).search).toBe('?period=30d&filter=page:/about');
    await shown(page, query({ days: '30' }, ['page:/about']));
    expect(await chips(page)).toEqual(['Page is /about']);
    await expectTheCard(page, query({ days: '30' }, ['page:/about']));
    // Alice on 18 Oct, Bob on 21 Oct and Carol on 23 Oct read /about: three visits of the eight, and the panels moved
    // (the three came from the three sites that link here, which stay).
    expect(await tileFigure(page, 'visits')).toBe(3);
    const filtered = await panelsShown(page);
    for (const list of ['pages', 'entry-pages', 'sources', 'countries', 'browsers', 'path'])
      expect(filtered[list], list).not.toEqual(plain[list]);
    expect(filtered.referrers).toEqual(plain.referrers);
    expect(await page.textContent('#export-words')).toBe('24 Sep to 23 Oct, Page is /about');
    // The export names its lists as the table of dimensions has them.
    expect((await page.textContent('#export-note'))?.replace(/\s+/g, ' ')).toContain(
      'sources, countries, browsers, campaigns and screens.',
    );

    // Enter on a country.
    await page.focus('#countries-table button.filter:text-is("Germany")');
    const [byCountry] = await Promise.all([cardRead(page), page.keyboard.press('Enter')]);
    expect(new URL(byCountry.url()).searchParams.getAll('filter')).toEqual(['page:/about', 'country:DE']);
    await shown(page, query({ days: '30' }, ['page:/about', 'country:DE']));
    expect(await chips(page)).toEqual(['Page is /about', 'Country is Germany']);
    await expectTheCard(page, query({ days: '30' }, ['page:/about', 'country:DE']));
    // Both filters together: Alice's one visit from Germany.
    expect(await rowsOf(page, '#countries-table')).toEqual([['Germany', '1']]);
    expect(await tileFigure(page, 'visits')).toBe(1);

    // A site that links here, from its tab.
    await page.click('#tab-referrers');
    const host = (await rowsOf(page, '#referrers-table'))[0]![0]!;
    const [bySite] = await Promise.all([cardRead(page), page.click(`#referrers-table button.filter:text-is("${host}")`)]);
    expect(new URL(bySite.url()).searchParams.getAll('filter')).toEqual(['page:/about', 'country:DE', `referrer:${host}`]);
    const three = query({ days: '30' }, ['page:/about', 'country:DE', `referrer:${host}`]);
    await shown(page, three);
    expect(await chips(page)).toEqual(['Page is /about', 'Country is Germany', `Site is ${host}`]);
    expect(new URL(page.url()).search).toBe(`?period=30d&filter=page:/about&filter=country:DE&filter=referrer:${host}`);
    await expectTheCard(page, three);

    // A chip's words switch it to "is not".
    const [negated] = await Promise.all([cardRead(page), page.click('#filter-list li:nth-child(2) .chip-words')]);
    expect(new URL(negated.url()).searchParams.getAll('filter')).toEqual(['page:/about', '!country:DE', `referrer:${host}`]);
    await shown(page, query({ days: '30' }, ['page:/about', '!country:DE', `referrer:${host}`]));
    expect(await chips(page)).toEqual(['Page is /about', 'Country is not Germany', `Site is ${host}`]);

    // × removes one; Back brings it back, Forward takes it away again.
    const [removed] = await Promise.all([cardRead(page), page.click('#filter-list li:nth-child(1) .chip-remove')]);
    expect(new URL(removed.url()).searchParams.getAll('filter')).toEqual(['!country:DE', `referrer:${host}`]);
    await shown(page, query({ days: '30' }, ['!country:DE', `referrer:${host}`]));
    expect(await chips(page)).toEqual(['Country is not Germany', `Site is ${host}`]);
    await Promise.all([cardRead(page), page.goBack()]);
    await shown(page, query({ days: '30' }, ['page:/about', '!country:DE', `referrer:${host}`]));
    expect(await chips(page)).toEqual(['Page is /about', 'Country is not Germany', `Site is ${host}`]);
    await Promise.all([cardRead(page), page.goForward()]);
    await shown(page, query({ days: '30' }, ['!country:DE', `referrer:${host}`]));

    // Clear all: the view as it was before any filter.
    const [cleared] = await Promise.all([cardRead(page), page.click('#clear-filters')]);
    expect(new URL(cleared.url()).search).toBe('?days=30');
    await shown(page, 'days=30');
    expect(await page.isVisible('#filters')).toBe(false);
    expect(await panelsShown(page)).toEqual(plain);
    // The period keeps the filters, and the filters the period.
    await Promise.all([cardRead(page), page.goBack()]);
    await shown(page, query({ days: '30' }, ['!country:DE', `referrer:${host}`]));
    const [week] = await Promise.all([cardRead(page), page.keyboard.press('w')]);
    expect(new URL(week.url()).search).toBe(`?${query({ days: '7' }, ['!country:DE', `referrer:${host}`])}`);
    expect(troubles).toEqual([]);
  });

  test('the export follows the period and the filters, and downloads from the keyboard', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page, '/api/admin?from=2026-10-17&to=2026-10-23&filter=country:DE');
    await shown(page, query({ from: '2026-10-17', to: '2026-10-23' }, ['country:DE']));
    await page.click('#export summary');
    expect(await page.textContent('#export-words')).toBe('17 Oct to 23 Oct, Country is Germany');
    await page.focus('#export-button');
    const [download, request] = await Promise.all([
      page.waitForEvent('download'),
      readOf(page, '/api/admin/export'),
      page.keyboard.press('Enter'),
    ]);
    expect(new URL(request.url()).search).toBe(`?${query({ from: '2026-10-17', to: '2026-10-23', format: 'csv' }, ['country:DE'])}`);
    expect(download.suggestedFilename()).toBe('headcount-2026-10-17-2026-10-23.csv');
    const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe(
      'day,people_new,visits,people,scanners,self,total,linkedin,github,search,other,typed,countries,browsers,campaigns,screens,views_per_visit,bounce_rate,visit_duration',
    );
    expect(csv.slice(1, 8).map((line) => line.split(',')[0])).toEqual([
      '2026-10-17',
      '2026-10-18',
      '2026-10-19',
      '2026-10-20',
      '2026-10-21',
      '2026-10-22',
      '2026-10-23',
    ]);
    expect(await page.textContent('#export-message')).toBe('Exported headcount-2026-10-17-2026-10-23.csv.');

    // A range past 400 days is clamped by the app to the days kept, and the export takes the days the card answered.
    await page.goto(`${t.host.url}/api/admin?from=2024-01-01&to=2026-10-23`);
    await shown(page, 'from=2024-01-01&to=2026-10-23');
    await page.click('#export summary');
    const [long] = await Promise.all([page.waitForEvent('download'), page.click('#export-button')]);
    expect(long.suggestedFilename()).toBe('headcount-2026-10-18-2026-10-23.csv');
    expect(troubles).toEqual([]);
  });
});

describe('now reads itself again', () => {
  test('every 30 seconds while the page is in view, and not while it is hidden (the page clock moved, never waited for)', async () => {
    // A context of its own, whose clock is the test's: the other tests' pages keep the real one.
    const context = await browser.newContext();
    await context.addCookies(hostileSession);
    const page = await context.newPage();
    await page.clock.install({ time: new Date(NOW) });
    await page.goto(`${h.host.url}/api/admin`);
    await signedIn(page);
    // Paused a second on from the page's now (a pause cannot go back): the next read is due 30 s after now was drawn.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    const before = await adminRead(h, '/api/admin/now');
    expect(await tileFigure(page, 'now')).toBe(before.people_last_30_minutes);
    // Someone new in the last half hour, kept by the host.
    await keep(h, [
      {
        at: '2026-10-23T19:55:00Z',
        address: '81.2.69.161',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
        path: '/now',
        page_load: true,
      },
    ]);
    const after = await adminRead(h, '/api/admin/now');
    expect(after.people_last_30_minutes).toBe(before.people_last_30_minutes + 1);
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/admin/')) reads.push(new URL(request.url()).pathname);
    });
    await page.clock.runFor(26_000);
    expect(reads).toEqual([]);
    await Promise.all([nowRead(page), page.clock.runFor(4_000)]);
    await page.waitForFunction(
      (n) => document.querySelector('[data-figure="now"] .figure')?.textContent === String(n),
      after.people_last_30_minutes,
    );
    expect(await rowsOf(page, '#now-paths-table')).toContainEqual(['/now', '1']);
    // Only now was read: the period's panels stand.
    expect(reads).toEqual(['/api/admin/now']);

    // Hidden, it reads nothing; seen again, it reads at once.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.clock.runFor(90_000);
    expect(reads).toEqual(['/api/admin/now']);
    await Promise.all([
      nowRead(page),
      page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }),
    ]);
    expect(reads).toEqual(['/api/admin/now', '/api/admin/now']);
    await context.close();
  });
});

describe('what a visitor controls is shown as text', () => {
  async function hostilePage(): Promise<{ page: Page; dialogs: string[] }> {
    const page = await reset(bypassing, hostileSession);
    const dialogs = dialogsOf(page);
    await page.goto(`${h.host.url}/api/admin`);
    await signedIn(page);
    return { page, dialogs };
  }

  test("a path that is markup and a host that breaks out of an attribute: in the pages, the sites, now, the day's visitors and a filter's chip", async () => {
    const { page, dialogs } = await hostilePage();
    expect((await rowsOf(page, '#pages-table')).find((row) => row[0] === HOSTILE_PATH)).toEqual([HOSTILE_PATH, '1', '1', '–', '–']);
    expect((await rowsOf(page, '#entry-pages-table')).find((row) => row[0] === HOSTILE_PATH)).toEqual([HOSTILE_PATH, '1']);
    expect((await rowsOf(page, '#referrers-table')).find((row) => row[0] === HOSTILE_HOST)).toEqual([HOSTILE_HOST, '1', '1']);
    expect(await rowsOf(page, '#now-paths-table')).toContainEqual([HOSTILE_PATH, '1']);
    await Promise.all([page.waitForSelector('#day-table'), page.click('#day summary')]);
    const day = await rowsOf(page, '#day-table');
    expect(day.find((row) => row[7] === `${HOSTILE_PATH} (1)`)?.[8]).toBe(`${HOSTILE_HOST} (1)`);
    // Its filter: the chip says it as text, the address keeps it, the card is asked for it.
    const [asked] = await Promise.all([cardRead(page), page.click(`#pages-table button.filter:text-is(${JSON.stringify(HOSTILE_PATH)})`)]);
    expect(new URL(asked.url()).searchParams.getAll('filter')).toEqual([`page:${HOSTILE_PATH}`]);
    expect(new URLSearchParams(new URL(page.url()).search).getAll('filter')).toEqual([`page:${HOSTILE_PATH}`]);
    await page.waitForSelector('#dashboard[data-state="ready"]');
    expect(await chips(page)).toEqual([`Page is ${HOSTILE_PATH}`]);
    await page.click('#tab-referrers');
    await Promise.all([cardRead(page), page.click(`#referrers-table button.filter:text-is(${JSON.stringify(HOSTILE_HOST)})`)]);
    await page.waitForSelector('#dashboard[data-state="ready"]');
    expect(await chips(page)).toEqual([`Page is ${HOSTILE_PATH}`, `Site is ${HOSTILE_HOST}`]);
    for (const part of ['#pages-table', '#referrers-table', '#filter-list', '#day-table']) await page.hover(part);
    expect(await injected(page)).toBe(0);
    expect(dialogs).toEqual([]);
  });

  test('a hostile path, host, campaign tag or prop in every list is literal text, and no dialog opens', async () => {
    const page = await reset(bypassing, session);
    const dialogs = dialogsOf(page);
    const base = await adminRead(t, '/api/admin/activity?days=30');
    const now = await adminRead(t, '/api/admin/now');
    await answer(page, '/api/admin/activity', () => ({
      ...base,
      sources: { ...base.sources, other: 1, other_hosts: [{ host: '<img src=x onerror=alert(2)>', page_loads: 1 }] },
      campaigns: [{ source: '<script>alert(3)</script>', medium: null, campaign: '<b>launch</b>', page_loads: 1 }],
      pages: [{ path: HOSTILE_PATH, page_loads: 12, people: 12 }],
      entry_pages: [{ path: HOSTILE_PATH, people: 3 }],
      referrers: [{ host: '<b onmouseover=alert(4)>bold</b>.example', page_loads: 1, people: 1 }],
      goals: [
        {
          goal: 'signup',
          conversions: 3,
          rate: 0.25,
          people_all_time: 41,
          first_touch: {
            sources: [{ name: '<img src=x onerror=alert(8)>', people: 41, conversions: 3 }],
            referrers: [],
            campaigns: [],
            days_to_convert: { '0': 41, '1': 0, '2-7': 0, '8-30': 0, '31+': 0, unknown: 0 },
          },
        },
      ],
      events: [{ event: 'signup', count: 4, visitor_days: 3, props: { plan: [{ value: '<i onclick=alert(6)>pro</i>', count: 3 }] } }],
      imported: {
        tools: ['plausible'],
        from: '2026-09-28',
        to: '2026-10-02',
        days: 5,
        visits: 120,
        page_loads: null,
        pages: [{ path: HOSTILE_PATH, page_loads: 40 }],
        sources: [{ source: '<img src=x onerror=alert(7)>', visitor_days: 70 }],
        countries: [{ country: 'DE', visitor_days: 80 }],
      },
    }));
    await answer(page, '/api/admin/now', () => ({ ...now, top_paths: [{ path: HOSTILE_PATH, requests: 1 }] }));
    await answer(page, '/api/admin/activity/visitors', () => ({
      day: '2026-10-23',
      visitors: [visitorRow(2, { kind: 'scanners', left_out: 'path', top_paths: [{ path: '/<script>alert(5)</script>', requests: 3 }] })],
      next: null,
      availability: { available: true, reason: 'kept', retention: null },
    }));
    await open(page);
    await signedIn(page);
    await Promise.all([page.waitForSelector('#day-table'), page.click('#day summary')]);
    expect(await rowsOf(page, '#pages-table')).toEqual([[HOSTILE_PATH, '12', '12', '–', '–']]);
    expect(await rowsOf(page, '#referrers-table')).toEqual([['<b onmouseover=alert(4)>bold</b>.example', '1', '1']]);
    expect(await rowsOf(page, '#campaigns-table')).toEqual([['<script>alert(3)</script> / (no medium) / <b>launch</b>', '1']]);
    expect(await rowsOf(page, '#events-table')).toEqual([['signup', '4', '3', 'plan: <i onclick=alert(6)>pro</i> 3']]);
    expect(await rowsOf(page, '#first-touch-signup')).toEqual([['<img src=x onerror=alert(8)>', '41', '3']]);
    expect(await rowsOf(page, '#imported-pages-table')).toEqual([[HOSTILE_PATH, '40']]);
    expect(await rowsOf(page, '#imported-sources-table')).toEqual([['<img src=x onerror=alert(7)>', '70']]);
    expect(await rowsOf(page, '#imported-countries-table')).toEqual([['Germany (DE)', '80']]);
    expect((await rowsOf(page, '#day-table')).map((row) => [row[2], row[7]])).toEqual([
      ['Bot or scanner: probing for secrets', '/<script>alert(5)</script> (3)'],
    ]);
    await page.click('#tab-campaigns');
    await Promise.all([cardRead(page), page.click('#campaigns-table button.filter')]);
    await page.waitForSelector('#dashboard[data-state="ready"]');
    expect(await chips(page)).toEqual(['Campaign is <script>alert(3)</script> / (no medium) / <b>launch</b>']);
    for (const table of ['#pages-table', '#campaigns-table', '#day-table', '#filter-list']) await page.hover(table);
    expect(await injected(page)).toBe(0);
    expect(dialogs).toEqual([]);
  });
});

describe('words a site owner knows, and accessibility', () => {
  test('the page speaks of visitors, visits and pageviews, never of visitor-days, stores or page loads', async () => {
    const page = await reset(signed, session);
    await open(page);
    await signedIn(page);
    for (const details of ['#day', '#export', '#help', '#your-site']) await page.click(`${details} summary`);
    await page.waitForSelector('#day-table');
    const words = await page.evaluate(() => document.body.innerText);
    expect(words).toMatch(/Visits/);
    expect(words).toMatch(/Pageviews/);
    expect(words).not.toMatch(/visitor-day|page load|\bstore\b|site's own|\bNo people\b/i);
  });

  test('an empty count is 0, not "No", and each panel says it has nothing to show', async () => {
    const empty = await startTestHost({ queues: false });
    await containerOf(empty.env);
    const page = await reset(signed, SIGNED_OUT);
    try {
      await signIn(page, empty.host.url, empty.env.OPERATOR_KEY!);
      await signedIn(page);
      for (const name of ['people', 'visits', 'page_loads', 'now', 'all_new_today'])
        expect(await page.textContent(`[data-figure="${name}"] .figure`), name).toBe('0');
      expect(await tileFigure(page, 'people_all_time')).toBe(0);
      expect(await change(page, 'people_all_time')).toBe('none yet');
      expect(await change(page, 'all_visits')).toBe('not counted yet');
      expect(await page.textContent('#pages-body')).toBe('No pageviews in the last 30 days.');
      expect(await page.textContent('#countries-body')).toBe('No visits in the last 30 days.');
      expect(await page.textContent('[data-chart="now-minutes"] .empty')).toBe('Nobody in the last 30 minutes.');
    } finally {
      await empty.stop();
    }
  });

  test('has no accessibility violation at all (axe-core) at 1280 and at 375 px: signed out, signed in, with filters, a tab, an explanation, the range and the help open', async () => {
    const page = await reset(bypassing, SIGNED_OUT, DESKTOP);
    await page.goto(`${t.host.url}/api/admin`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await axeViolations(page)).toEqual([]);
    await typeKey(page, t.env.OPERATOR_KEY!);
    await signedIn(page);
    expect(await axeViolations(page)).toEqual([]);
    await Promise.all([cardRead(page), page.click('#countries-table button.filter')]);
    await page.waitForSelector('#dashboard[data-state="ready"]');
    await page.click('#tab-systems');
    await page.click('#pages .info summary');
    await page.click('#period-form label:has(#period-custom)');
    for (const details of ['#day', '#export', '#help', '#your-site']) await page.click(`${details} summary`);
    await page.waitForSelector('#day-table');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

describe("the day's visitors and the contract's longer shapes", () => {
  test("the day's visitors: the period's last day when opened, another from the form, a page at a time with More", async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);
    const [first] = await Promise.all([dayRead(page), page.click('#day summary')]);
    expect(new URL(first.url()).search).toBe('?day=2026-10-23');
    await page.waitForSelector('#day-table');
    const today = await adminRead(t, '/api/admin/activity/visitors?day=2026-10-23');
    expect((await rowsOf(page, '#day-table')).map((row) => row[0])).toEqual(today.visitors.map((v: any) => v.token.slice(0, 8)));
    expect(await page.textContent('#day-words')).toBe(`23 Oct: ${today.visitors.length} rows, every visitor of the day.`);
    expect((await rowsOf(page, '#day-table')).some((row) => row[2] === 'Bot or scanner: crawler by agent')).toBe(true);
    await page.fill('#day-input', '2026-10-21');
    const [asked] = await Promise.all([dayRead(page), page.click('#day-button')]);
    expect(new URL(asked.url()).search).toBe('?day=2026-10-21');
    await page.waitForSelector('#day-table caption:text("Visitors on 21 Oct, first seen first")');
    // A period ending on another day shows that day's visitors.
    await open(page, '/api/admin?from=2026-10-18&to=2026-10-20');
    await signedIn(page);
    const [follows] = await Promise.all([dayRead(page), page.click('#day summary')]);
    expect(new URL(follows.url()).search).toBe('?day=2026-10-20');

    const token = 'page2-x_';
    await answer(page, '/api/admin/activity/visitors', (url) =>
      url.searchParams.get('next') === token
        ? {
            day: '2026-10-23',
            visitors: [101, 102, 103].map((i) => visitorRow(i)),
            next: null,
            availability: { available: true, reason: 'kept', retention: null },
          }
        : {
            day: '2026-10-23',
            visitors: Array.from({ length: 100 }, (_, i) => visitorRow(i + 1)),
            next: token,
            availability: { available: true, reason: 'kept', retention: null },
          },
    );
    await open(page);
    await signedIn(page);
    await Promise.all([page.waitForSelector('#day-table'), page.click('#day summary')]);
    expect(await rowsOf(page, '#day-table')).toHaveLength(100);
    expect(await page.textContent('#day-words')).toBe('23 Oct: the first 100 rows; there are more.');
    await page.focus('#day-more');
    const [next] = await Promise.all([dayRead(page), page.keyboard.press('Enter')]);
    expect(next.url()).toContain(`?day=2026-10-23&next=${encodeURIComponent(token)}`);
    await page.waitForSelector('#day-more', { state: 'hidden' });
    expect(await rowsOf(page, '#day-table')).toHaveLength(103);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('day-body');
    expect(troubles).toEqual([]);
  });

  test('a period longer than 400 days is drawn a month a point, and days still being added up are named in one sentence', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    const month = (m: string, i: number) => ({
      month: m,
      people: i,
      scanners: 1,
      self: 0,
      total: i + 1,
      page_loads: 2 * i,
      left_out: { agent: 1, path: 0, network: 0, signals: 0 },
    });
    const months = Array.from({ length: 24 }, (_, i) => month(new Date(Date.UTC(2024, 10 + i, 1)).toISOString().slice(0, 7), i));
    const before = Array.from({ length: 24 }, (_, i) => month(new Date(Date.UTC(2022, 10 + i, 1)).toISOString().slice(0, 7), 1));
    const base = await adminRead(t, '/api/admin/activity?days=30');
    await answer(page, '/api/admin/activity', () => ({
      ...base,
      days: 722,
      from: '2024-11-01',
      to: '2026-10-23',
      by_day: null,
      by_month: months,
      people_in_period: { estimate: 1234, error: 0.02, complete: false },
      headline: { people: 1234, people_new: 1200, visits: 5000, page_loads: 9000, conversions: 0 },
      previous: {
        from: '2022-11-09',
        to: '2024-10-31',
        people: 0,
        people_new: 0,
        visits: 0,
        page_loads: 0,
        conversions: 0,
        by_month: before,
      },
      pages: [],
      rollups: { complete: false, built_back_to: '2026-03-01' },
    }));
    await open(page, '/api/admin?from=2024-11-01&to=2026-10-23');
    await shown(page, 'from=2024-11-01&to=2026-10-23');
    expect(await page.textContent('#main-caption')).toBe('Visits each month, 1 Nov 2024 to 23 Oct, and the 722 days before (faint)');
    expect(await chartRows(page, 'main')).toEqual(months.map((m) => [m.month, n(m.people), '1']));
    expect((await paintedPixels(page)).main).toBeGreaterThan(500);
    expect(await page.textContent('#left-out')).toBe('Left out in Oct 2026: 1 crawler by agent.');
    expect(await page.textContent('#rollups-note')).toBe(
      'Days before 1 Mar are still being added up, so these figures do not hold them yet.',
    );
    expect(await page.textContent('[data-figure="people"] .qualifier')).toBe('at least');
    expect(await tileFigure(page, 'people')).toBe(1234);
    expect(await page.textContent('#pages-body')).toBe('No pageviews from 1 Nov 2024 to 23 Oct.');
    // A month's point makes the month the period.
    const point = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-chart="main"] canvas')!;
      const { x, y } = (window as any).Chart.getChart(canvas).getDatasetMeta(0).data[3];
      const box = canvas.getBoundingClientRect();
      return { x: box.left + x, y: box.top + y };
    });
    const [asked] = await Promise.all([cardRead(page), page.mouse.click(point.x, point.y)]);
    expect(new URL(asked.url()).search).toBe('?from=2025-02-01&to=2025-02-28');
    expect(troubles).toEqual([]);
  });
});

describe('the Admin dashboard at /api/admin', () => {
  test('refuses a wrong key with a clear message and stays signed out', async () => {
    const page = await (await reset(signed, SIGNED_OUT)).context().newPage();
    await signIn(page, t.host.url, 'not-the-operator-key-at-all');
    await page.waitForSelector('#sign-in-message.bad');
    expect(await page.textContent('#sign-in-message')).toBe('That key was not accepted. Check the operator key and try again.');
    expect(await page.isVisible('#dashboard')).toBe(false);
    expect(await page.isVisible('#period-form')).toBe(false);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.close();
  });

  test('signs in, draws every chart, shows the subjects, the count since it began and the mark, and saves the screenshots', async () => {
    const page = await reset(signed, SIGNED_OUT, DESKTOP);
    const troubles = pageTroubles(page);
    await signIn(page, t.host.url, t.env.OPERATOR_KEY!);
    await signedIn(page);
    const people = await adminRead(t, '/api/admin/visitors/people');
    expect(await tileFigure(page, 'all_people')).toBe(people.people_all_time);
    expect(await tileFigure(page, 'all_visits')).toBe(people.visits.all_time);
    expect(await tileFigure(page, 'all_scanners')).toBe(people.scanners_left_out);
    expect(await tileFigure(page, 'all_new_today')).toBe(people.people_new_today);
    expect(await tileFigure(page, 'all_new_month')).toBe(people.people_new_month);
    // Every dimension of the table has its list in a panel, under the tab its row names.
    for (const row of DIMENSION_TABLE) expect(await page.locator(`#${row.tab}-body`).count(), row.filter).toBe(1);
    const subjects = await adminRead(t, '/api/admin/subjects?sort=scans&order=desc&limit=50');
    expect((await rowsOf(page, '#subjects-table')).map((row) => row.slice(0, 6))).toEqual(
      subjects.subjects.map((s: any) => [s.subject, s.scans, s.unique, s.repeat, s.scanners, s.self].map(String)),
    );
    // Each chart drew, the hours once their tab is shown.
    const painted = await paintedPixels(page);
    for (const chart of ['main', 'now-minutes']) expect(painted[chart], chart).toBeGreaterThan(500);
    expect(painted.hours).toBe(0);
    await page.click('#tab-now-hours');
    expect((await paintedPixels(page)).hours).toBeGreaterThan(500);
    await page.click('#tab-now-minutes');
    await page.click('#your-site summary');
    await page.waitForSelector('headcount-pulse[data-state="ready"]');
    expect(await page.getAttribute('#mark-links a', 'href')).toMatch(/^https:\/\/site\.example\/#headcount-operator=[0-9a-f]{64}$/);
    await page.click('#your-site summary');
    expect(await page.getAttribute('a[href="https://db-ip.com"]', 'href')).toBe('https://db-ip.com');
    await screenshot(page, 'dashboard-desktop');
    const small = await reset(phone, session, PHONE);
    await open(small);
    await signedIn(small);
    await screenshot(small, 'dashboard-phone');
    expect(troubles).toEqual([]);
  });

  test('says which reads failed when the app cannot be reached, and keeps the sign-in', async () => {
    const page = await reset(signed, session);
    await open(page);
    await signedIn(page);
    await t.stop();
    stopped = true;
    await page.click('#refresh');
    await page.waitForSelector('#dashboard[data-state="partial"]');
    expect(await page.textContent('#status')).toMatch(/6 of 6 reads failed/);
    expect(await page.textContent('#pages-body')).toBe('Could not be read: the app could not be reached.');
    expect(await page.textContent('[data-chart="main"] .failed')).toBe('Could not be read: the app could not be reached.');
    expect(await tileFigure(page, 'people')).toBeNull();
    expect(await page.isVisible('#dashboard')).toBe(true);
  });
});
