import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { adminRead, seededHost } from './fixture';
import { launchChromium, pageTroubles, paintedPixels, screenshot } from './support';

const CHARTS = [
  'new-people',
  'visits',
  'now-minutes',
  'now-paths',
  'kinds',
  'hours',
  'sources',
  'path',
  'countries',
  'campaigns',
  'browsers',
  'systems',
  'types',
];

let t: TestHost;
let stopped = false;
let browser: Browser;

beforeAll(async () => {
  [t, browser] = await Promise.all([seededHost(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  if (!stopped) await t?.stop();
});

/** Opens the dashboard and signs in from the keyboard: Tab past the skip link to the key, type it, Enter. */
async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/api/admin`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
}

const signedIn = (page: Page) => page.waitForSelector('#dashboard[data-state="ready"], #dashboard[data-state="partial"]');

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

describe('the Admin dashboard at /api/admin', () => {
  test('refuses a wrong key with a clear message and stays signed out', async () => {
    const page = await browser.newPage();
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
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
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
    expect(await tableRows(page, 'countries')).toEqual(activity.countries.map((c: any) => [c.country, String(c.visitor_days)]));
    expect(await tableRows(page, 'campaigns')).toEqual([
      ['linkedin / social / launch', '1'],
      ['newsletter / email / (no campaign)', '1'],
    ]);
    for (const [chart, list] of [
      ['browsers', activity.devices.browsers],
      ['systems', activity.devices.systems],
      ['types', activity.devices.types],
    ] as const) {
      expect(await tableRows(page, chart)).toEqual(list.map((n: any) => [n.name, String(n.visitor_days)]));
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
      "People's visitor-days by country, most first: DE 5, FR 2, JP 1.",
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
      "Visitor-days over the last 30 days: 8 of people, 4 of scanners and crawlers, 2 of the site's own reads.",
    );

    // The first screen's preview and the operator's mark link for each allowed site.
    expect(await page.locator('headcount-pulse').textContent()).toBe('');
    expect(await page.evaluate(() => document.querySelector('headcount-pulse')!.shadowRoot!.textContent)).toBe(
      '8visits by people since 18 Oct',
    );
    expect(await page.getAttribute('#mark-links a', 'href')).toMatch(/^https:\/\/site\.example\/#headcount-operator=[0-9a-f]{64}$/);
    // Signing in marked this browser as the site's own on the app.
    expect((await context.cookies()).find((cookie) => cookie.name === 'headcount_operator')?.httpOnly).toBe(true);

    await screenshot(page, 'dashboard-desktop');
    expect(troubles).toEqual([]);
    await context.close();
  });

  test('fits a phone (375 px) with nothing wider than the screen, and saves the phone screenshot', async () => {
    const context = await browser.newContext({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const troubles = pageTroubles(page);
    await signIn(page, t.host.url, t.env.OPERATOR_KEY!);
    await signedIn(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const painted = await paintedPixels(page);
    for (const chart of CHARTS) expect(painted[chart], chart).toBeGreaterThan(500);
    await screenshot(page, 'dashboard-phone');
    expect(troubles).toEqual([]);
    await context.close();
  });

  test('has no serious or critical accessibility violations (axe-core), signed out, signed in, and at phone width', async () => {
    const axe = readFileSync(join(__dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
    // axe is injected by the test, which the page's own policy (scripts from the app only) rightly refuses.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const check = async () => {
      if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axe });
      const result = await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }));
      return (result.violations as { id: string; impact: string; nodes: unknown[] }[])
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${violation.impact} ${violation.id} (${violation.nodes.length})`);
    };
    await page.goto(`${t.host.url}/api/admin`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await check()).toEqual([]);
    await signIn(page, t.host.url, t.env.OPERATOR_KEY!);
    await signedIn(page);
    expect(await check()).toEqual([]);
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await check()).toEqual([]);
    await context.close();
  });

  test('says so when there is nothing yet: no people, and each chart says it has nothing to draw', async () => {
    const empty = await startTestHost({ queues: false });
    await containerOf(empty.env);
    const page = await browser.newPage();
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
      await page.close();
      await empty.stop();
    }
  });

  test('exports the figures from the keyboard as a CSV download, and says why when the range is refused', async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const troubles = pageTroubles(page);
    await signIn(page, t.host.url, t.env.OPERATOR_KEY!);
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
    await context.close();
  });

  test('says which reads failed when the app cannot be reached, and keeps the sign-in', async () => {
    const context: BrowserContext = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, t.host.url, t.env.OPERATOR_KEY!);
    await signedIn(page);
    await t.stop();
    stopped = true;
    await page.click('#refresh');
    await page.waitForSelector('#dashboard[data-state="partial"]');
    expect(await page.textContent('#status')).toMatch(/5 of 5 reads failed/);
    expect(await page.$$eval('[data-chart] .failed', (nodes) => nodes.map((node) => node.textContent))).toEqual(
      CHARTS.map(() => 'Could not be read: the app could not be reached.'),
    );
    expect(await page.textContent('[data-figure="people_all_time"] .figure')).toBe('–');
    expect(await page.isVisible('#dashboard')).toBe(true);
    await context.close();
  });
});
