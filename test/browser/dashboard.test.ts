import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContextOptions, Cookie, Page } from 'playwright-core';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { adminRead, HOSTILE_HITS, HOSTILE_HOST, HOSTILE_PATH, keep, seededHost } from './fixture';
import { axeViolations, closeContexts, pageTroubles, paintedPixels, resetPage, screenshot, workerChromium } from './support';

const CHARTS = [
  'new-people',
  'visits',
  'now-minutes',
  'now-paths',
  'hours',
  'kinds',
  'sources',
  'path',
  'countries',
  'campaigns',
  'browsers',
  'systems',
  'types',
];

let t: TestHost;
/** A second seeded host, that has also kept a visitor's hostile path and link: what a visitor controls, shown as text. */
let h: TestHost;
let stopped = false;
let browser: Browser;
/**
 * The tests' pages, one per set of context options, each brought back to a known state by the test that takes it
 * (`reset`): a new context or page would start a renderer of its own and read every asset again, which cost as much
 * as most tests. `signed` keeps the page's policy; `bypassing` bypasses it, so axe can be injected and markup set as
 * HTML would run; `phone` is a phone's screen (375 px, twice as dense, touch).
 */
let signed: Page;
let bypassing: Page;
let phone: Page;
/**
 * Each host's session: the cookies of signing in to it once from the keyboard (the seeded host's on `signed`, the
 * hostile host's on `bypassing`), which a test's page starts with.
 */
let session: Cookie[];
let hostileSession: Cookie[];
/** No cookies: a page that starts signed out. */
const SIGNED_OUT: Cookie[] = [];

/** A seeded host that has also kept HOSTILE_HITS. */
async function hostileHost(): Promise<TestHost> {
  const host = await seededHost();
  await keep(host, HOSTILE_HITS);
  return host;
}

/** Signs a page in to a host from the keyboard, and gives the session's cookies. */
async function sessionOf(page: Page, host: TestHost): Promise<Cookie[]> {
  await signIn(page, host.host.url, host.env.OPERATOR_KEY!);
  await signedIn(page);
  return page.context().cookies();
}

/** A page in a context of its own with these options. */
const pageWith = async (options: BrowserContextOptions) => (await browser.newContext(options)).newPage();

beforeAll(async () => {
  // The hosts are seeded side by side, and the pages then sign in side by side. The pages are opened after the seeding:
  // starting their renderers beside it slowed the seeding threefold.
  [t, h, browser] = await Promise.all([seededHost(), hostileHost(), workerChromium()]);
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

/** Opens the dashboard (at `path`, which may keep a period) and signs in from the keyboard. */
async function signIn(page: Page, url: string, key: string, path = '/api/admin'): Promise<void> {
  await page.goto(`${url}${path}`);
  await typeKey(page, key);
}

/** Signs in on the dashboard the page shows, from the keyboard: Tab past the skip link to the key, type it, Enter. */
async function typeKey(page: Page, key: string): Promise<void> {
  await page.waitForSelector('body[data-ready="true"]');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
}

/** Waits until the signed-in dashboard has drawn its first read, whether or not every read succeeded. */
const signedIn = (page: Page) => page.waitForSelector('#dashboard[data-state="ready"], #dashboard[data-state="partial"]');

/** The viewports the tests use: Playwright's default, the desktop screenshot's, and a phone's. */
const DEFAULT = { width: 1280, height: 720 };
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/** A page earlier tests used, back to a known state (`resetPage`) with a session, or none to start signed out. */
const reset = (page: Page, cookies: Cookie[], viewport = DEFAULT) => resetPage(page, { cookies, viewport });

/** Opens the seeded host's dashboard (at `path`, which may keep a period) on a page that holds the session: it reads at once. */
const open = (page: Page, path = '/api/admin') => page.goto(`${t.host.url}${path}`);

/** A tile's figure as the page shows it: a number ("No" is none), or null for the dash of an unread figure. */
async function tileFigure(page: Page, name: string): Promise<number | null> {
  const text = (await page.textContent(`[data-figure="${name}"] .figure`))!.trim();
  if (text === '–') return null;
  return text === 'No' ? 0 : Number(text.replace(/,/g, ''));
}

/** The rows of a chart's text alternative (the visually hidden table), header cells included. */
function tableRows(page: Page, chart: string): Promise<string[][]> {
  return page.$$eval(`[data-chart="${chart}"] table tbody tr`, (rows) =>
    rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')),
  );
}

/** A table's body rows as the page shows them, every cell's text (the row's header cell first). */
function rowsOf(page: Page, table: string): Promise<string[][]> {
  return page.$$eval(`${table} tbody tr`, (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));
}

/** The names the fixture's browsers, systems and device types are written with: as their makers write them. */
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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A day of the fixture's year in the dashboard's words: 2026-10-18 is "18 Oct", a day of another year has its year. */
const dayWords = (day: string) =>
  `${Number(day.slice(8))} ${MONTHS[Number(day.slice(5, 7)) - 1]}${day.startsWith('2026') ? '' : ` ${day.slice(0, 4)}`}`;

/** The page's next read of the card, and of the day's visitors. */
const cardRead = (page: Page) => page.waitForRequest((request) => new URL(request.url()).pathname === '/api/admin/activity');
const dayRead = (page: Page) => page.waitForRequest((request) => new URL(request.url()).pathname === '/api/admin/activity/visitors');

/** Waits until the dashboard has drawn the card read with this query (`days=7`), whether or not every read succeeded. */
const periodShown = (page: Page, query: string) =>
  page.waitForSelector(`#dashboard[data-period="${query}"]:is([data-state="ready"], [data-state="partial"])`);

/** Picks a period by its chip, and gives the address of the card's read that it made. */
async function pick(page: Page, name: string): Promise<URL> {
  const [request] = await Promise.all([cardRead(page), page.click(`#period-form label:has(input[value="${name}"])`)]);
  return new URL(request.url());
}

const checkedPeriod = (page: Page) =>
  page.$$eval('input[name="period"]', (radios) => (radios as HTMLInputElement[]).filter((r) => r.checked).map((r) => r.value));

/** The named periods: the address's name, the card's days, and the words every panel of the period says. */
const PICKS = [
  ['today', '1', 'today'],
  ['7d', '7', 'the last 7 days'],
  ['30d', '30', 'the last 30 days'],
  ['90d', '90', 'the last 90 days'],
  ['12m', '365', 'the last 12 months'],
] as const;

/** The panels of the period, each of which names it. */
const PERIOD_PANELS = [
  '#headline',
  '#kinds',
  '#pages',
  '#entry-pages',
  '#sources',
  '#referrers',
  '#path',
  '#countries',
  '#campaigns',
  '#devices',
];

/** A tile's words under its figure: the change against the period before. */
const change = (page: Page, name: string) => page.textContent(`[data-figure="${name}"] .change`);
const tileWords = (page: Page, name: string) => page.textContent(`[data-figure="${name}"] dd:not(.change)`);

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

/** The fields the card gains in issue 20; an app from before has none of them. */
const NEW_FIELDS = ['by_month', 'people_in_period', 'headline', 'previous', 'pages', 'entry_pages', 'referrers', 'rollups'];

/** The card as the app answers it today for `query`, with the new fields taken out and these put in. */
async function card(query: string, fields: Record<string, unknown> = {}): Promise<any> {
  const live = await adminRead(t, `/api/admin/activity?${query}`);
  for (const field of NEW_FIELDS) delete live[field];
  return { ...live, ...fields };
}

/** One row of a day's visitors as the API answers it. */
const visitorRow = (i: number, fields: Record<string, unknown> = {}) => ({
  token: `${String(i).padStart(8, '0')}aaaaaaaa`,
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
  page.$$eval('#dashboard img, #dashboard script, #dashboard b, #dashboard [onerror], #dashboard [onmouseover]', (nodes) => nodes.length);

describe('the period: picked, kept in the address, and read with its days', () => {
  test('picks each named period by its chip: the address keeps it, the card is read with its days, and every panel says it', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);
    expect(await checkedPeriod(page)).toEqual(['30d']);
    expect(await page.getAttribute('#dashboard', 'data-period')).toBe('days=30');
    const firstCanvas = (await page.$('[data-chart="kinds"] canvas'))!;
    for (const [name, days, words] of PICKS) {
      const asked = await pick(page, name);
      expect(asked.search).toBe(`?days=${days}`);
      expect(new URL(page.url()).search).toBe(`?period=${name}`);
      await periodShown(page, `days=${days}`);
      expect(await checkedPeriod(page)).toEqual([name]);
      expect(await page.textContent('#headline-title')).toBe(`People, visits and page loads, ${words}`);
      expect(await page.textContent('[data-chart="kinds"] figcaption')).toBe(`Visitor-days by kind, ${words}`);
      expect(await tableRows(page, 'kinds')).toHaveLength(Number(days));
      // The chart itself is redrawn with the period's days and summary, on the canvas it was first drawn on.
      expect(await firstCanvas.evaluate((canvas) => canvas.isConnected)).toBe(true);
      expect(await firstCanvas.evaluate((canvas) => (window as any).Chart.getChart(canvas).data.labels.length)).toBe(Number(days));
      expect(await firstCanvas.getAttribute('aria-label')).toMatch(new RegExp(`^Visitor-days ${name === 'today' ? '' : 'in '}${words}: `));
      for (const panel of PERIOD_PANELS) {
        const text = (await page.textContent(panel))!;
        expect(text, panel).toContain(words);
        if (name !== '30d') expect(text, panel).not.toMatch(/30 days/);
      }
      // The days said in the dashboard's words, whatever way the browser writes the range's dates.
      expect(await page.textContent('#period-message')).toMatch(
        name === 'today' ? /^Showing 23 Oct, a UTC day\.$/ : /^Showing \d+ \w{3}( \d{4})? to 23 Oct, UTC days\.$/,
      );
    }
    expect(await page.textContent('#left-out')).toBe('Left out today: 2 crawlers by agent.');

    // The chips are one radio group: an arrow key picks the one beside.
    await page.focus('input[name="period"][value="12m"]');
    const [left] = await Promise.all([cardRead(page), page.keyboard.press('ArrowLeft')]);
    expect(new URL(left.url()).search).toBe('?days=90');
    expect(new URL(page.url()).search).toBe('?period=90d');
    await periodShown(page, 'days=90');

    // Back is the period before.
    const [back] = await Promise.all([cardRead(page), page.goBack()]);
    expect(new URL(back.url()).search).toBe('?days=365');
    await periodShown(page, 'days=365');
    expect(await checkedPeriod(page)).toEqual(['12m']);
    expect(troubles).toEqual([]);
  });

  test('since the start, and a typed range: the address keeps them, the card is read with days=all or from and to, and the captions say its days', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);

    const all = await pick(page, 'all');
    expect(all.search).toBe('?days=all');
    expect(new URL(page.url()).search).toBe('?period=all');
    await periodShown(page, 'days=all');
    const whole = await adminRead(t, '/api/admin/activity?days=all');
    expect(await page.textContent('[data-chart="kinds"] figcaption')).toBe(`Visitor-days by kind, since ${dayWords(whole.from)}`);
    expect(await tableRows(page, 'kinds')).toEqual(
      whole.by_day.map((d: any) => [d.day, d.people, d.scanners, d.self, d.total].map(String)),
    );
    // Nothing was counted before the start: no change is said.
    expect(await change(page, 'visits')).toBe('');

    await page.fill('#range-from', '2026-10-18');
    await page.fill('#range-to', '2026-10-21');
    const [ranged] = await Promise.all([cardRead(page), page.click('#range-button')]);
    expect(new URL(ranged.url()).search).toBe('?from=2026-10-18&to=2026-10-21');
    expect(new URL(page.url()).search).toBe('?from=2026-10-18&to=2026-10-21');
    await periodShown(page, 'from=2026-10-18&to=2026-10-21');
    expect(await checkedPeriod(page)).toEqual([]);
    expect(await page.textContent('#headline-title')).toBe('People, visits and page loads, 18 Oct to 21 Oct');
    expect(await page.textContent('[data-chart="kinds"] figcaption')).toBe('Visitor-days by kind, 18 Oct to 21 Oct');
    expect((await tableRows(page, 'kinds')).map((row) => row[0])).toEqual(['2026-10-18', '2026-10-19', '2026-10-20', '2026-10-21']);
    expect(await page.textContent('#period-message')).toBe('Showing 18 Oct to 21 Oct, UTC days.');
    expect(await page.textContent('#left-out')).toBe('Left out on 21 Oct: nobody.');
    // The day's visitors follow the range: its last day.
    expect(await page.textContent('#day-table caption')).toBe('Visitors on 21 Oct, first seen first');
    const range = await adminRead(t, '/api/admin/activity?from=2026-10-18&to=2026-10-21');
    expect(range.previous).toMatchObject({ from: '2026-10-14', to: '2026-10-17', people_new: 0, visits: 0, page_loads: 0 });
    expect(await change(page, 'visits')).toBe('new (none in the 4 days before)');

    // A range the wrong way round is refused in words, and nothing is read.
    await page.fill('#range-from', '2026-10-22');
    await page.click('#range-button');
    await page.waitForSelector('#period-message.bad');
    expect(await page.textContent('#period-message')).toBe('The first day of the range must not be after the last.');
    expect(new URL(page.url()).search).toBe('?from=2026-10-18&to=2026-10-21');
    expect(troubles).toEqual([]);
  });

  test('a bookmarked period comes back on sign-in and on reload; an address it cannot read shows the last 30 days and says so', async () => {
    const page = await reset(signed, SIGNED_OUT);
    const troubles = pageTroubles(page);
    const [asked] = await Promise.all([cardRead(page), signIn(page, t.host.url, t.env.OPERATOR_KEY!, '/api/admin?period=90d')]);
    expect(new URL(asked.url()).search).toBe('?days=90');
    await periodShown(page, 'days=90');
    expect(await checkedPeriod(page)).toEqual(['90d']);
    expect(await page.textContent('[data-chart="kinds"] figcaption')).toBe('Visitor-days by kind, the last 90 days');

    // The session outlives a reload (its cookie, not the key), so a reload reads the same period at once.
    const [again] = await Promise.all([cardRead(page), page.reload()]);
    expect(new URL(again.url()).search).toBe('?days=90');
    await periodShown(page, 'days=90');
    expect(await checkedPeriod(page)).toEqual(['90d']);
    expect(await page.textContent('#headline-title')).toBe('People, visits and page loads, the last 90 days');

    for (const [address, why] of [
      ['?period=5y', 'The address names a period the dashboard does not know, so the last 30 days are shown.'],
      [
        '?from=2026-10-21&to=2026-10-18',
        'The address has no readable range (from and to, as YYYY-MM-DD, the first not after the last), so the last 30 days are shown.',
      ],
      [
        '?from=2026-02-30&to=2026-03-01',
        'The address has no readable range (from and to, as YYYY-MM-DD, the first not after the last), so the last 30 days are shown.',
      ],
    ]) {
      const [fallback] = await Promise.all([cardRead(page), page.goto(`${t.host.url}/api/admin${address}`)]);
      expect(new URL(fallback.url()).search, address).toBe('?days=30');
      await periodShown(page, 'days=30');
      expect(await page.textContent('#period-message.bad')).toBe(why);
      expect(await checkedPeriod(page)).toEqual(['30d']);
    }
    expect(troubles).toEqual([]);
  });

  // Signing in at a bookmarked address is the test above's: this one opens the bookmark with the session already held.
  test('a bookmarked range comes back when opened signed in and on reload, in its two labelled inputs and in the captions', async () => {
    const page = await reset(signed, session);
    const [asked] = await Promise.all([cardRead(page), open(page, '/api/admin?from=2026-10-18&to=2026-10-21')]);
    expect(new URL(asked.url()).search).toBe('?from=2026-10-18&to=2026-10-21');
    for (const step of ['opened', 'reloaded']) {
      if (step === 'reloaded') {
        const [again] = await Promise.all([cardRead(page), page.reload()]);
        expect(new URL(again.url()).search).toBe('?from=2026-10-18&to=2026-10-21');
      }
      await periodShown(page, 'from=2026-10-18&to=2026-10-21');
      expect(await page.inputValue('#range-from'), step).toBe('2026-10-18');
      expect(await page.inputValue('#range-to'), step).toBe('2026-10-21');
      expect(await page.textContent('label[for="range-from"]')).toBe('First day of the range');
      expect(await page.textContent('label[for="range-to"]')).toBe('Last day of the range');
      expect(await checkedPeriod(page)).toEqual([]);
      expect(await page.textContent('[data-chart="kinds"] figcaption'), step).toBe('Visitor-days by kind, 18 Oct to 21 Oct');
      expect(await tableRows(page, 'kinds')).toHaveLength(4);
    }
  });
});

describe("the period's panels, read from the fixture's week", () => {
  test('the tiles, top pages, entry pages and sites that link here show what the card answers', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);
    const activity = await adminRead(t, '/api/admin/activity?days=30');

    // Four people, each once; the 30 days before had nobody, so every figure is new.
    expect(Math.round(activity.people_in_period.estimate)).toBe(4);
    expect(activity.people_in_period).toMatchObject({ error: 0.02, complete: true });
    expect(activity.headline).toMatchObject({ people_new: 4, visits: 8, page_loads: 14 });
    expect(activity.previous).toMatchObject({ from: '2026-08-25', to: '2026-09-23', people_new: 0, visits: 0, page_loads: 0 });
    expect(await tileFigure(page, 'people_in_period')).toBe(4);
    expect(await tileWords(page, 'people_in_period')).toBe('4 people, an estimate (±2%)');
    expect(await tileWords(page, 'people_new')).toBe('4 new people');
    expect(await tileWords(page, 'visits')).toBe('8 visits');
    expect(await tileWords(page, 'page_loads')).toBe('14 page loads');
    for (const name of ['people_new', 'visits', 'page_loads']) expect(await change(page, name)).toBe('new (none in the 30 days before)');
    expect(await page.$$eval('#headline .failed', (nodes) => nodes.length)).toBe(0);

    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect([...activity.pages].sort(byPath)).toEqual(
      [
        { path: '/', page_loads: 5, people: 5 },
        { path: '/about', page_loads: 3, people: 3 },
        { path: '/resume', page_loads: 3, people: 3 },
        { path: '/trees/42', page_loads: 1, people: 1 },
        { path: '/trees/7', page_loads: 1, people: 1 },
        { path: '/cart', page_loads: 1, people: 1 },
      ].sort(byPath),
    );
    expect(await rowsOf(page, '#pages-table')).toEqual(activity.pages.map((p: any) => [p.path, String(p.page_loads), String(p.people)]));
    expect([...activity.entry_pages].sort(byPath)).toEqual(
      [
        { path: '/', people: 5 },
        { path: '/trees/42', people: 1 },
        { path: '/resume', people: 1 },
        { path: '/cart', people: 1 },
      ].sort(byPath),
    );
    expect(await rowsOf(page, '#entry-pages-table')).toEqual(activity.entry_pages.map((p: any) => [p.path, String(p.people)]));

    // LinkedIn, GitHub and Google linked here once each.
    const hosts = activity.referrers.map((r: any) => r.host).sort();
    expect(hosts).toHaveLength(3);
    for (const site of [/(^|\.)github\.com$/, /(^|\.)google\.com$/, /(^|\.)linkedin\.com$/])
      expect(hosts.some((h: string) => site.test(h))).toBe(true);
    expect(activity.referrers.every((r: any) => r.page_loads === 1 && r.people === 1)).toBe(true);
    expect(await rowsOf(page, '#referrers-table')).toEqual(
      activity.referrers.map((r: any) => [r.host, String(r.page_loads), String(r.people)]),
    );
    // Goals and Events name what they count in their titles, in the words of docs/events.md.
    expect(await page.textContent('#goals-title')).toBe("Goals, in people's visitor-days that reached each");
    expect(await page.textContent('#events-title')).toBe('Events, in times sent');
    // Nothing was imported: the card has no `imported`, and its panel and the headline's note stay hidden.
    expect(activity).not.toHaveProperty('imported');
    expect(await page.isHidden('#imported')).toBe(true);
    expect(await page.isHidden('#headline-imported')).toBe(true);
    expect(await page.getAttribute('#dashboard', 'data-state')).toBe('ready');
    expect(troubles).toEqual([]);
  });

  test("the day's visitors: the period's last day first, another day from the form or a day's bar, every row the API answers, and no More on the last page", async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);
    const cells = (v: any) => [
      v.token.slice(0, 8),
      v.first_seen.slice(11, 16) === v.last_seen.slice(11, 16)
        ? v.first_seen.slice(11, 16)
        : `${v.first_seen.slice(11, 16)} to ${v.last_seen.slice(11, 16)}`,
      v.store,
      v.network,
      String(v.requests),
      String(v.page_loads),
      v.top_paths.map((p: any) => `${p.path} (${p.requests})`).join('') || '–',
      v.sources.map((s: any) => `${s.host} (${s.page_loads})`).join('') || '–',
    ];
    const shown = async () =>
      (await rowsOf(page, '#day-table')).map((row) => [row[0], row[1], row[3], row[4], row[5], row[6], row[7], row[8]]);

    const today = await adminRead(t, '/api/admin/activity/visitors?day=2026-10-23');
    expect(today.next ?? null).toBeNull();
    expect(await page.inputValue('#day-input')).toBe('2026-10-23');
    expect(await page.textContent('label[for="day-input"]')).toBe('Day (UTC)');
    expect(await shown()).toEqual(today.visitors.map(cells));
    expect(await page.textContent('#day-words')).toBe(`23 Oct: ${today.visitors.length} rows, every visitor of the day.`);
    expect(await page.isVisible('#day-more')).toBe(false);
    // Carol came from a search, on the site's store; the crawler is named with its reason.
    expect((await rowsOf(page, '#day-table')).some((row) => row[2] === 'Scanner: crawler by agent')).toBe(true);

    await page.fill('#day-input', '2026-10-21');
    const [asked] = await Promise.all([dayRead(page), page.click('#day-button')]);
    expect(new URL(asked.url()).search).toBe('?day=2026-10-21');
    await page.waitForSelector('#day-table caption:text("Visitors on 21 Oct, first seen first")');
    const bob = await adminRead(t, '/api/admin/activity/visitors?day=2026-10-21');
    expect(await shown()).toEqual(bob.visitors.map(cells));

    // A day's bar in the kinds chart picks that day: here 18 Oct, the people's bar of Alice's first day.
    const bar = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-chart="kinds"] canvas')!;
      const chart = (window as any).Chart.getChart(canvas);
      const index = (chart.data.labels as string[]).indexOf('18 Oct');
      const { x, y, base } = chart.getDatasetMeta(0).data[index];
      const box = canvas.getBoundingClientRect();
      return { x: box.left + x, y: box.top + (y + base) / 2 };
    });
    const [clicked] = await Promise.all([dayRead(page), page.mouse.click(bar.x, bar.y)]);
    expect(new URL(clicked.url()).search).toBe('?day=2026-10-18');
    await page.waitForSelector('#day-table caption:text("Visitors on 18 Oct, first seen first")');
    expect(await page.inputValue('#day-input')).toBe('2026-10-18');
    expect(troubles).toEqual([]);
  });
});

describe('what a visitor controls is shown as text', () => {
  /** The page that bypasses the policy with the hostile host's session and dashboard drawn, and every dialog it opens. */
  async function hostilePage(): Promise<{ page: Page; dialogs: string[] }> {
    const page = await reset(bypassing, hostileSession);
    const dialogs = dialogsOf(page);
    await page.goto(`${h.host.url}/api/admin`);
    await signedIn(page);
    return { page, dialogs };
  }

  test("a path that is markup and a host that breaks out of an attribute, in today's panels: now, sources and the day's visitors", async () => {
    const { page, dialogs } = await hostilePage();
    expect(await tableRows(page, 'now-paths')).toContainEqual([HOSTILE_PATH, '1']);
    expect((await tableRows(page, 'sources')).map((row) => row[0])).toContain(`Other: ${HOSTILE_HOST}`);
    const day = await rowsOf(page, '#day-table');
    const hostile = day.find((row) => row[7] === `${HOSTILE_PATH} (1)`);
    expect(hostile?.[8]).toBe(`${HOSTILE_HOST} (1)`);
    await page.mouse.move(640, 400);
    await page.hover('#day-table');
    expect(await injected(page)).toBe(0);
    expect(dialogs).toEqual([]);
  });

  test('the same in the top pages, entry pages and sites that link here', async () => {
    const { page, dialogs } = await hostilePage();
    const pages = await rowsOf(page, '#pages-table');
    expect(pages.find((row) => row[0] === HOSTILE_PATH)).toEqual([HOSTILE_PATH, '1', '1']);
    expect((await rowsOf(page, '#entry-pages-table')).find((row) => row[0] === HOSTILE_PATH)).toEqual([HOSTILE_PATH, '1']);
    expect((await rowsOf(page, '#referrers-table')).find((row) => row[0] === HOSTILE_HOST)).toEqual([HOSTILE_HOST, '1', '1']);
    await page.hover('#referrers-table');
    expect(await injected(page)).toBe(0);
    expect(dialogs).toEqual([]);
  });
});

describe("the contract's shapes the fixture cannot make, answered by the test", () => {
  test('a card from before issue 20: each new panel says it could not be read, and the rest still draw', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    const old = await card('days=30');
    await answer(page, '/api/admin/activity', () => old);
    await open(page);
    await signedIn(page);
    expect(await page.textContent('#headline-why')).toBe('Could not be read: the app did not send them.');
    for (const name of ['people_in_period', 'people_new', 'visits', 'page_loads']) {
      expect(await tileFigure(page, name)).toBeNull();
      expect(await change(page, name)).toBe('');
    }
    for (const panel of ['#pages-body', '#entry-pages-body', '#referrers-body']) {
      expect(await page.textContent(`${panel} .failed`)).toBe('Could not be read: the app did not send them.');
    }
    expect(await page.isVisible('#rollups-note')).toBe(false);
    expect(await page.$$eval('[data-chart][data-drawn="true"]', (figures) => figures.length)).toBe(CHARTS.length);
    expect(await page.getAttribute('#dashboard', 'data-state')).toBe('ready');
    expect(troubles).toEqual([]);
  });

  test('the tiles name their unit and say the change on the period before: up, down, about the same, new, or nothing when unread', async () => {
    const page = await reset(signed, session);
    let fields: Record<string, unknown> = {
      people_in_period: { estimate: 20.4, error: 0.02, complete: true },
      headline: { people: 20.4, people_new: 10, visits: 112, page_loads: 50 },
      previous: { from: '2026-10-10', to: '2026-10-16', people: 0, people_new: 10, visits: 100, page_loads: 100 },
    };
    const base = await card('days=7');
    await answer(page, '/api/admin/activity', () => ({ ...base, ...fields }));
    await open(page, '/api/admin?period=7d');
    await periodShown(page, 'days=7');
    expect(await tileWords(page, 'people_in_period')).toBe('20 people, an estimate (±2%)');
    expect(await change(page, 'people_in_period')).toBe('new (none in the 7 days before)');
    expect(await tileWords(page, 'people_new')).toBe('10 new people');
    expect(await change(page, 'people_new')).toBe('about as many as the 7 days before');
    expect(await tileWords(page, 'visits')).toBe('112 visits');
    expect(await change(page, 'visits')).toBe('+12% on the 7 days before');
    expect(await tileWords(page, 'page_loads')).toBe('50 page loads');
    expect(await change(page, 'page_loads')).toBe('−50% on the 7 days before');
    for (const name of ['people_in_period', 'people_new', 'visits', 'page_loads']) {
      expect(await page.textContent(`[data-figure="${name}"] dt`)).toMatch(/people|visits|page loads/i);
    }

    // People kept before the sketch make the estimate a lower bound; a figure the period before did not read says no change.
    fields = {
      people_in_period: { estimate: 3, error: 0.02, complete: false },
      headline: { people: 3, people_new: 1, visits: 0, page_loads: 1 },
      previous: { from: '2026-10-10', to: '2026-10-16', people: null, people_new: 0, visits: 0, page_loads: 4 },
    };
    await page.click('#refresh');
    await page.waitForSelector('[data-figure="people_new"] .unit:text("new person")');
    expect(await tileWords(page, 'people_in_period')).toBe('3 people, at least: an estimate');
    expect(await change(page, 'people_in_period')).toBe('');
    expect(await tileWords(page, 'people_new')).toBe('1 new person');
    expect(await change(page, 'people_new')).toBe('new (none in the 7 days before)');
    expect(await tileWords(page, 'visits')).toBe('No visits');
    expect(await change(page, 'visits')).toBe('none in the 7 days before either');
    expect(await tileWords(page, 'page_loads')).toBe('1 page load');
    expect(await change(page, 'page_loads')).toBe('−75% on the 7 days before');
  });

  test('a window longer than 400 days is drawn a bar a month, and days still being added up are named in one sentence', async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    const months = Array.from({ length: 24 }, (_, i) => {
      const month = new Date(Date.UTC(2024, 10 + i, 1)).toISOString().slice(0, 7);
      return { month, people: i, scanners: 1, self: 0, total: i + 1, left_out: { agent: 1, path: 0, network: 0, signals: 0 } };
    });
    const base = await card('days=30');
    await answer(page, '/api/admin/activity', () => ({
      ...base,
      days: 722,
      from: '2024-11-01',
      to: '2026-10-23',
      by_day: null,
      by_month: months,
      people_in_period: { estimate: 1234, error: 0.02, complete: false },
      headline: { people: 1234, people_new: 1200, visits: 5000, page_loads: 9000 },
      previous: { from: '2022-11-09', to: '2024-10-31', people: 0, people_new: 0, visits: 0, page_loads: 0 },
      pages: [],
      entry_pages: [],
      referrers: [],
      rollups: { complete: false, built_back_to: '2026-03-01' },
    }));
    const [asked] = await Promise.all([cardRead(page), open(page, '/api/admin?from=2024-11-01&to=2026-10-23')]);
    expect(new URL(asked.url()).search).toBe('?from=2024-11-01&to=2026-10-23');
    await periodShown(page, 'from=2024-11-01&to=2026-10-23');
    expect(await page.textContent('#kinds-title')).toBe('Visits by kind, month by month');
    expect(await page.textContent('[data-chart="kinds"] figcaption')).toBe('Visitor-days by kind and month, 1 Nov 2024 to 23 Oct');
    expect(await tableRows(page, 'kinds')).toEqual(months.map((m) => [m.month, m.people, m.scanners, m.self, m.total].map(String)));
    expect((await paintedPixels(page)).kinds).toBeGreaterThan(500);
    expect(await page.textContent('#left-out')).toBe('Left out in Oct 2026: 1 crawler by agent.');
    expect(await page.isVisible('#rollups-note')).toBe(true);
    expect(await page.textContent('#rollups-note')).toBe(
      'Days before 1 Mar are still being added up, so these figures do not hold them yet.',
    );
    expect(await tileWords(page, 'people_in_period')).toBe('1,234 people, at least: an estimate');
    expect(await page.textContent('#pages-body')).toBe('No page loads by people from 1 Nov 2024 to 23 Oct.');
    expect(troubles).toEqual([]);
  });

  test("the day's visitors come a page at a time: More reads the next page with its token URL-encoded, until the last", async () => {
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    const token = 'page 2+/=?&x';
    await answer(page, '/api/admin/activity/visitors', (url) =>
      url.searchParams.get('next') === token
        ? { day: '2026-10-23', visitors: [101, 102, 103].map((i) => visitorRow(i)), next: null, availability: { available: true } }
        : {
            day: '2026-10-23',
            visitors: Array.from({ length: 100 }, (_, i) => visitorRow(i + 1)),
            next: token,
            availability: { available: true },
          },
    );
    const [first] = await Promise.all([dayRead(page), open(page)]);
    expect(new URL(first.url()).search).toBe('?day=2026-10-23');
    await signedIn(page);
    expect(await rowsOf(page, '#day-table')).toHaveLength(100);
    expect(await page.textContent('#day-words')).toBe('23 Oct: the first 100 rows; there are more.');
    expect(await page.isVisible('#day-more')).toBe(true);
    await page.focus('#day-more');
    const [next] = await Promise.all([dayRead(page), page.keyboard.press('Enter')]);
    expect(next.url()).toContain(`?day=2026-10-23&next=${encodeURIComponent(token)}`);
    await page.waitForSelector('#day-more', { state: 'hidden' });
    const rows = await rowsOf(page, '#day-table');
    expect(rows.map((row) => row[0])).toEqual(Array.from({ length: 103 }, (_, i) => `${String(i + 1).padStart(8, '0')}`));
    expect(await page.textContent('#day-words')).toBe('23 Oct: 103 rows, every visitor of the day.');
    // The button went with the last page, and the keyboard is in the table rather than lost.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('day-body');
    expect(troubles).toEqual([]);
  });

  /** The card, the day and now with a visitor's hostile text in every list a visitor controls, and twelve pages. */
  async function hostileAnswers(page: Page): Promise<void> {
    const base = await card('days=30');
    const now = await adminRead(t, '/api/admin/now');
    const pages = [HOSTILE_PATH, ...Array.from({ length: 11 }, (_, i) => `/notes/${i + 1}`)];
    await answer(page, '/api/admin/activity', () => ({
      ...base,
      sources: { ...base.sources, other_hosts: [{ host: '<img src=x onerror=alert(2)>', page_loads: 1 }] },
      campaigns: [{ source: '<script>alert(3)</script>', medium: null, campaign: '<b>launch</b>', page_loads: 1 }],
      people_in_period: { estimate: 12, error: 0.02, complete: true },
      headline: { people: 12, people_new: 12, visits: 12, page_loads: 78 },
      previous: { from: '2026-08-25', to: '2026-09-23', people: 6, people_new: 6, visits: 6, page_loads: 39 },
      pages: pages.map((path, i) => ({ path, page_loads: 12 - i, people: 12 - i })),
      entry_pages: [{ path: HOSTILE_PATH, people: 3 }],
      referrers: [
        { host: HOSTILE_HOST, page_loads: 2, people: 1 },
        { host: '<b onmouseover=alert(4)>bold</b>.example', page_loads: 1, people: 1 },
      ],
      goals: [
        { goal: 'signup', conversions: 3, rate: 0.25, people_all_time: 41 },
        { goal: 'cv', conversions: 0, rate: 0, people_all_time: 2 },
      ],
      events: [{ event: 'signup', count: 4, visitor_days: 3, props: { plan: [{ value: '<i onclick=alert(6)>pro</i>', count: 3 }] } }],
      rollups: { complete: true, built_back_to: null },
      imported: {
        tools: ['plausible'],
        from: '2026-09-28',
        to: '2026-10-02',
        days: 5,
        visits: 120,
        page_loads: null,
        pages: [
          { path: HOSTILE_PATH, page_loads: 40 },
          ...Array.from({ length: 11 }, (_, i) => ({ path: `/old/${i + 1}`, page_loads: 11 - i })),
        ],
        sources: [
          { source: '<img src=x onerror=alert(7)>', visitor_days: 70 },
          { source: 'Direct / None', visitor_days: 50 },
        ],
        countries: [
          { country: 'DE', visitor_days: 80 },
          { country: 'FR', visitor_days: 40 },
        ],
      },
    }));
    await answer(page, '/api/admin/now', () => ({ ...now, top_paths: [{ path: HOSTILE_PATH, requests: 1 }] }));
    await answer(page, '/api/admin/activity/visitors', () => ({
      day: '2026-10-23',
      visitors: [
        visitorRow(1, { top_paths: [{ path: HOSTILE_PATH, requests: 1 }], sources: [{ host: HOSTILE_HOST, page_loads: 1 }] }),
        visitorRow(2, { kind: 'scanners', left_out: 'path', top_paths: [{ path: '/<script>alert(5)</script>', requests: 3 }] }),
      ],
      next: 'more',
      availability: { available: true },
    }));
  }

  test('a hostile path, host or campaign tag in every list is literal text, and no dialog opens; the pages show ten and then all', async () => {
    const page = await reset(bypassing, session);
    const dialogs = dialogsOf(page);
    await hostileAnswers(page);
    await open(page);
    await signedIn(page);
    const pages = await rowsOf(page, '#pages-table');
    expect(pages[0]).toEqual([HOSTILE_PATH, '12', '12']);
    expect(await rowsOf(page, '#entry-pages-table')).toEqual([[HOSTILE_PATH, '3']]);
    expect(await rowsOf(page, '#referrers-table')).toEqual([
      [HOSTILE_HOST, '2', '1'],
      ['<b onmouseover=alert(4)>bold</b>.example', '1', '1'],
    ]);
    expect(await tableRows(page, 'now-paths')).toEqual([[HOSTILE_PATH, '1']]);
    // Goals with their conversions, rate and people ever; events with their props, a visitor's text as text.
    expect(await rowsOf(page, '#goals-table')).toEqual([
      ['signup', '3', '25.0%', '41'],
      ['cv', '0', '0.0%', '2'],
    ]);
    expect(await rowsOf(page, '#events-table')).toEqual([['signup', '4', '3', 'plan: <i onclick=alert(6)>pro</i> 3']]);
    // Plausible's totals, in a panel of their own that says what they are, and that people are not rebuilt from them.
    expect(await page.isVisible('#imported')).toBe(true);
    expect(await page.textContent('#imported-title')).toBe('Imported from Plausible, the last 30 days');
    expect(await page.textContent('#imported-note')).toContain('imported for 5 days of the period (from 28 Sep to 2 Oct)');
    expect(await page.textContent('#imported-note')).toContain('People cannot be rebuilt from daily totals');
    expect(await page.textContent('#headline-imported')).toContain('Visits by people include the daily visitors imported from Plausible');
    expect(await tileWords(page, 'imported_visits')).toBe('120 visits');
    expect(await tileWords(page, 'imported_page_loads')).toBe('– not in the export');
    expect((await rowsOf(page, '#imported-pages-table'))[0]).toEqual([HOSTILE_PATH, '40']);
    expect(await page.$$eval('#imported-pages-table tbody tr:not([hidden])', (rows) => rows.length)).toBe(10);
    expect(await rowsOf(page, '#imported-sources-table')).toEqual([
      ['<img src=x onerror=alert(7)>', '70'],
      ['Direct / None', '50'],
    ]);
    expect(await rowsOf(page, '#imported-countries-table')).toEqual([
      ['Germany (DE)', '80'],
      ['France (FR)', '40'],
    ]);
    expect(await tableRows(page, 'campaigns')).toEqual([['<script>alert(3)</script> / (no medium) / <b>launch</b>', '1']]);
    expect((await tableRows(page, 'sources')).at(-1)).toEqual(['Other: <img src=x onerror=alert(2)>', '1']);
    const day = await rowsOf(page, '#day-table');
    expect(day.map((row) => [row[2], row[7], row[8]])).toEqual([
      ['Person', `${HOSTILE_PATH} (1)`, `${HOSTILE_HOST} (1)`],
      ['Scanner: probing for secrets', '/<script>alert(5)</script> (3)', '–'],
    ]);
    expect(await tileWords(page, 'page_loads')).toBe('78 page loads');
    expect(await change(page, 'page_loads')).toBe('+100% on the 30 days before');

    // Ten pages show, the rest behind a button that says how many and whether they are open.
    expect(await page.$$eval('#pages-table tbody tr:not([hidden])', (rows) => rows.length)).toBe(10);
    const toggle = page.locator('#pages button[aria-controls="pages-table"]');
    expect(await toggle.textContent()).toBe('Show all 12');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await page.$$eval('#pages-table tbody tr:not([hidden])', (rows) => rows.length)).toBe(12);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await toggle.textContent()).toBe('Show the first 10');

    for (const table of ['#pages-table', '#referrers-table', '#events-table', '#day-table', '#imported-sources-table'])
      await page.hover(table);
    expect(await injected(page)).toBe(0);
    expect(dialogs).toEqual([]);
  });

  test('has no accessibility violation at all (axe-core) with every new panel filled, at 1280 and at 375 px, where nothing is wider than the screen', async () => {
    const page = await reset(bypassing, session, DESKTOP);
    await hostileAnswers(page);
    await open(page);
    await signedIn(page);
    await page.click('#pages button[aria-controls="pages-table"]');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // A range typed in, with its message.
    await page.fill('#range-from', '2026-10-22');
    await page.fill('#range-to', '2026-10-21');
    await page.click('#range-button');
    await page.waitForSelector('#period-message.bad');
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('the Admin dashboard at /api/admin', () => {
  test('refuses a wrong key with a clear message and stays signed out', async () => {
    // A tab of its own, whose sessionStorage no other test has used, in the signed context with its cookies taken away.
    const page = await (await reset(signed, SIGNED_OUT)).context().newPage();
    await signIn(page, t.host.url, 'not-the-operator-key-at-all');
    await page.waitForSelector('#sign-in-message.bad');
    expect(await page.textContent('#sign-in-message')).toBe('That key was not accepted. Check the operator key and try again.');
    expect(await page.isVisible('#dashboard')).toBe(false);
    expect(await page.isVisible('#sign-in')).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('headcount_operator');
    await page.close();
  });

  test('signs in, shows the figures the API answers, draws every chart, and saves the desktop screenshot', async () => {
    const page = await reset(signed, SIGNED_OUT, DESKTOP);
    const troubles = pageTroubles(page);
    await signIn(page, t.host.url, t.env.OPERATOR_KEY!);
    await signedIn(page);
    await page.waitForSelector('headcount-pulse[data-state="ready"]');

    const people = await adminRead(t, '/api/admin/visitors/people');
    const activity = await adminRead(t, '/api/admin/activity?days=30');
    expect(people.people_all_time).toBe(4);
    expect(await tileFigure(page, 'people_all_time')).toBe(people.people_all_time);
    expect(await tileFigure(page, 'people_new_today')).toBe(people.people_new_today);
    expect(await tileFigure(page, 'people_new_month')).toBe(people.people_new_month);
    expect(await tileFigure(page, 'scanners_left_out')).toBe(people.scanners_left_out);
    expect(await tileFigure(page, 'visits_all_time')).toBe(people.visits.all_time);
    // Words fit the numbers, and a count that began on 18 Oct says so rather than "all time".
    expect(await page.textContent('[data-figure="people_all_time"] dd')).toBe('4 people since 18 Oct');
    expect(await page.textContent('[data-figure="people_new_today"] dd')).toBe('2 people');
    expect(await page.textContent('[data-figure="visits_all_time"] dd')).toBe('8 visits since 18 Oct');
    expect(await page.textContent('#dashboard')).not.toMatch(/all time/i);

    expect(await tableRows(page, 'new-people')).toEqual(people.people_new_by_day.map((d: any) => [d.day, String(d.people)]));
    expect(await tableRows(page, 'visits')).toEqual(people.visits.by_day.map((d: any) => [d.day, String(d.visits)]));
    expect(await tableRows(page, 'kinds')).toEqual(
      activity.by_day.map((d: any) => [d.day, d.people, d.scanners, d.self, d.total].map(String)),
    );
    // Today's visitor-days left out, by reason, in words: the fixture's two agents that name a bot.
    expect(activity.by_day.at(-1).left_out).toEqual({ agent: 2, path: 0, network: 0, signals: 0 });
    expect(await page.textContent('#left-out')).toBe('Left out today: 2 crawlers by agent.');
    expect(await page.getAttribute('a[href="https://db-ip.com"]', 'href')).toBe('https://db-ip.com');
    const sources = await tableRows(page, 'sources');
    expect(sources.slice(0, 5)).toEqual([
      ['LinkedIn', String(activity.sources.linkedin)],
      ['GitHub', String(activity.sources.github)],
      ['Search', String(activity.sources.search)],
      ['Other sites', String(activity.sources.other)],
      ['Typed or unknown', String(activity.sources.typed)],
    ]);
    expect((await tableRows(page, 'path')).map((row) => row[1])).toEqual(activity.path.map((step: any) => String(step.visitor_days)));
    const hourTotals = (await tableRows(page, 'hours')).reduce(
      (sum, row) => sum + row.slice(1).reduce((s, cell) => s + Number(cell), 0),
      0,
    );
    expect(hourTotals).toBe(activity.hours.reduce((sum: number, hour: any) => sum + hour.requests, 0));

    // The audience panels show what the card and now answer, every figure in their tables.
    expect(activity.countries).toEqual([
      { country: 'DE', visitor_days: 5 },
      { country: 'FR', visitor_days: 2 },
      { country: 'JP', visitor_days: 1 },
    ]);
    // Named from the code in the chart (Intl.DisplayNames), the code beside the name in the table, as in the export.
    expect(await tableRows(page, 'countries')).toEqual([
      ['Germany', 'DE', '5'],
      ['France', 'FR', '2'],
      ['Japan', 'JP', '1'],
    ]);
    expect(await tableRows(page, 'campaigns')).toEqual([
      ['linkedin / social / launch', '1'],
      ['newsletter / email / (no campaign)', '1'],
    ]);
    for (const [chart, list] of [
      ['browsers', activity.devices.browsers],
      ['systems', activity.devices.systems],
      ['types', activity.devices.types],
    ] as const) {
      // As their makers write them: the app keeps the names lowercase, the page writes Chrome, iOS, macOS.
      expect(await tableRows(page, chart)).toEqual(list.map((n: any) => [MAKERS[n.name] ?? n.name, String(n.visitor_days)]));
    }
    expect(activity.devices.types.map((n: any) => n.name).sort()).toEqual(['desktop', 'mobile']);
    const now = await adminRead(t, '/api/admin/now');
    expect(now.people_last_30_minutes).toBe(2);
    expect(await tileFigure(page, 'people_last_30_minutes')).toBe(2);
    expect(await page.textContent('[data-figure="people_last_30_minutes"] dd')).toBe('2 people');
    expect(await tableRows(page, 'now-paths')).toEqual([
      ['/about', '1'],
      ['/resume', '1'],
    ]);
    expect((await tableRows(page, 'now-minutes')).filter((row) => row[1] !== '0')).toEqual([
      ['19:45', '1'],
      ['19:50', '1'],
    ]);
    expect(await page.getAttribute('[data-chart="countries"] canvas', 'aria-label')).toBe(
      "People's visitor-days by country, most first: Germany 5, France 2, Japan 1.",
    );

    const subjects = await adminRead(t, '/api/admin/subjects?sort=scans&order=desc&limit=50');
    expect(subjects.subjects.map((s: any) => s.subject).sort()).toEqual(['tree-42', 'tree-7']);
    expect(
      await page.$$eval('#subjects-table tbody tr', (rows) =>
        rows.map((row) => [...row.children].slice(0, 6).map((cell) => cell.textContent)),
      ),
    ).toEqual(subjects.subjects.map((s: any) => [s.subject, s.scans, s.unique, s.repeat, s.scanners, s.self].map(String)));
    expect(await page.getAttribute('#dashboard', 'data-state')).toBe('ready');

    // Every chart drew: a canvas with painted pixels and a summary for a screen reader.
    expect(await page.$$eval('[data-chart][data-drawn="true"]', (figures) => figures.map((f) => (f as HTMLElement).dataset.chart))).toEqual(
      CHARTS,
    );
    const painted = await paintedPixels(page);
    for (const chart of CHARTS) expect(painted[chart], chart).toBeGreaterThan(500);
    const labels = await page.$$eval('[data-chart] canvas', (canvases) =>
      canvases.map((c) => [c.getAttribute('role'), c.getAttribute('aria-label')]),
    );
    expect(labels.every(([role, label]) => role === 'img' && (label ?? '').length > 20)).toBe(true);
    expect(await page.getAttribute('[data-chart="kinds"] canvas', 'aria-label')).toBe(
      "Visitor-days in the last 30 days: 8 of people, 4 of scanners and crawlers, 2 of the site's own reads.",
    );

    // The first screen's preview and the operator's mark link for each allowed site.
    expect(await page.locator('headcount-pulse').textContent()).toBe('');
    expect(await page.evaluate(() => document.querySelector('headcount-pulse')!.shadowRoot!.textContent)).toBe(
      '8visits by people since 18 Oct',
    );
    expect(await page.getAttribute('#mark-links a', 'href')).toMatch(/^https:\/\/site\.example\/#headcount-operator=[0-9a-f]{64}$/);
    // Signing in marked this browser as the site's own on the app.
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'headcount_operator')?.httpOnly).toBe(true);

    await screenshot(page, 'dashboard-desktop');
    expect(troubles).toEqual([]);
  });

  test('fits a phone (375 px) with nothing wider than the screen, and saves the phone screenshot', async () => {
    const page = await reset(phone, session, PHONE);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const painted = await paintedPixels(page);
    for (const chart of CHARTS) expect(painted[chart], chart).toBeGreaterThan(500);
    await screenshot(page, 'dashboard-phone');
    expect(troubles).toEqual([]);
  });

  test('has no accessibility violation at all (axe-core), signed out, signed in, and at phone width', async () => {
    // axe is injected by the test, which the page's own policy (scripts from the app only) rightly refuses.
    const page = await reset(bypassing, SIGNED_OUT, DESKTOP);
    const check = () => axeViolations(page);
    await page.goto(`${t.host.url}/api/admin`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await check()).toEqual([]);
    await typeKey(page, t.env.OPERATOR_KEY!);
    await signedIn(page);
    expect(await check()).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await check()).toEqual([]);
  });

  test('says so when there is nothing yet: no people, and each chart says it has nothing to draw', async () => {
    const empty = await startTestHost({ queues: false });
    await containerOf(empty.env);
    const page = await reset(signed, SIGNED_OUT);
    try {
      await signIn(page, empty.host.url, empty.env.OPERATOR_KEY!);
      await signedIn(page);
      expect(await page.textContent('[data-figure="people_all_time"] dd')).toBe('No people yet');
      expect(await page.textContent('[data-figure="people_new_today"] dd')).toBe('No people');
      expect(await page.textContent('[data-figure="visits_all_time"] dd')).toBe('– not counted yet');
      expect(await page.$$eval('[data-chart] .empty', (nodes) => nodes.length)).toBe(CHARTS.length);
      expect(await page.textContent('[data-chart="new-people"] .empty')).toBe('No new people in the last 30 days.');
      expect(await page.textContent('[data-chart="now-minutes"] .empty')).toBe('Nobody in the last 30 minutes.');
      expect(await page.textContent('[data-chart="campaigns"] .empty')).toBe(
        'No page load by people carried a campaign tag in the last 30 days.',
      );
      expect(await page.textContent('[data-figure="people_last_30_minutes"] dd')).toBe('No people');
    } finally {
      await empty.stop();
    }
  });

  test('exports the figures from the keyboard as a CSV download, and says why when the range is refused', async () => {
    // The signed-in context accepts downloads, as every context does unless told not to.
    const page = await reset(signed, session);
    const troubles = pageTroubles(page);
    await open(page);
    await signedIn(page);
    await page.fill('#export-from', '2026-10-17');
    await page.fill('#export-to', '2026-10-23');
    await page.focus('#export-button');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('headcount-2026-10-17-2026-10-23.csv');
    const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('day,people_new,visits,people,scanners,self,total,linkedin,github,search,other,typed,countries,browsers,campaigns');
    expect(csv.slice(1, 8).map((line) => line.split(',')[0])).toEqual([
      '2026-10-17',
      '2026-10-18',
      '2026-10-19',
      '2026-10-20',
      '2026-10-21',
      '2026-10-22',
      '2026-10-23',
    ]);
    expect(csv[2]).toContain('DE=1');
    expect(csv[2]).toContain('linkedin/social/launch=1');
    expect(await page.textContent('#export-message')).toBe('Exported headcount-2026-10-17-2026-10-23.csv.');

    await page.fill('#export-from', '2024-01-01');
    await page.click('#export-button');
    await page.waitForSelector('#export-message.bad');
    expect(await page.textContent('#export-message')).toBe('Not exported: to: must be at most 400 days from from, both included.');
    // The refused export's 400 is the one message the browser logs.
    expect(troubles).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
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
    expect(await page.$$eval('[data-chart] .failed', (nodes) => nodes.map((node) => node.textContent))).toEqual(
      CHARTS.map(() => 'Could not be read: the app could not be reached.'),
    );
    expect(await page.textContent('[data-figure="people_all_time"] .figure')).toBe('–');
    expect(await page.isVisible('#dashboard')).toBe(true);
  });
});
