import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { cleanTag } from '../../shared/core/identity/campaign';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { keep, NOW } from './fixture';
import { closeContexts, pageTroubles, workerChromium } from './support';

// Markup a visitor can send in what the app keeps of a hit (the path, the referrer's host, the campaign's tags), each
// of which would set window.__pwned if the dashboard ever wrote it into the page as HTML.
const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '"><script>window.__pwned=2</script>';
const SVG = '<svg onload=window.__pwned=4>';
/** A URL's host cannot hold `<` or a space (the URL parser refuses it), so this is as hostile as a kept host gets. */
const HOST = `x'"onmouseover=window.__pwned=3&lt;img&gt;.example`;

const PATHS = [`/${IMG}`, `/${SCRIPT}`];
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0';

/**
 * A person today who comes from the hostile host by a link whose tags are markup, onto the markup path, and reads the
 * other; the query is sent as it stands (no escapes), as a script posting to the app directly may.
 */
const HITS = [
  {
    at: '2026-10-23T19:40:00Z',
    address: '81.2.69.160',
    user_agent: FIREFOX_WINDOWS,
    path: `${PATHS[0]}?utm_source=${IMG}&utm_medium=${SCRIPT}&utm_campaign=${SVG}`,
    referrer: `https://${HOST}/`,
    page_load: true,
  },
  { at: '2026-10-23T19:45:00Z', address: '81.2.69.160', user_agent: FIREFOX_WINDOWS, path: PATHS[1], page_load: true },
];

/**
 * The campaign as the app keeps it: each tag cleaned to letters, digits, `.`, `_`, `~`, `+` and `-` (cleanTag), so a
 * tag's markup never reaches the store; the panel shows what is left, as text.
 */
const CAMPAIGN = [cleanTag(IMG), cleanTag(SCRIPT), cleanTag(SVG)].join(' / ');

/** The panels a visitor's text reaches (each holds its tabs' lists, shown or not). */
const PANELS = ['#now', '#pages', '#sources', '#day', '#filters'];

let t: TestHost;
let browser: Browser;

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestHost({ overrides: { clock: fixedClock(NOW) } }), workerChromium()]);
  // The local host makes no store of its own: the test makes it, as seededHost does.
  await containerOf(t.env);
  await keep(t, HITS);
});

afterAll(async () => {
  await closeContexts(browser);
  await t?.stop();
});

/** A table's body rows, every cell's text. */
function rowsOf(page: Page, table: string): Promise<string[][]> {
  return page.$$eval(`${table} tbody tr`, (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));
}

describe('what a visitor sends is shown on the dashboard as text, never as markup', () => {
  test('a path, a referrer host and campaign tags that are markup: shown as kept, nothing made of them, nothing run', async () => {
    expect(CAMPAIGN).not.toMatch(/[<>"]/);
    // The page's policy would refuse an inline handler or script on its own; bypassed, so markup set as HTML would run.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const troubles = pageTroubles(page);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${t.host.url}/api/admin`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#key', t.env.OPERATOR_KEY!);
    await page.press('#key', 'Enter');
    await page.waitForSelector('#dashboard[data-state="ready"], #dashboard[data-state="partial"]');
    await Promise.all([page.waitForSelector('#day-table'), page.click('#day summary')]);

    // Shown as the app keeps them, in the tables each panel draws.
    const pages = await rowsOf(page, '#pages-table');
    for (const path of PATHS) expect(pages.map((row) => row[0])).toContain(path);
    expect((await rowsOf(page, '#entry-pages-table')).map((row) => row[0])).toContain(PATHS[0]);
    expect((await rowsOf(page, '#referrers-table')).map((row) => row[0])).toContain(HOST);
    expect((await rowsOf(page, '#campaigns-table')).map((row) => row[0])).toContain(CAMPAIGN);
    // A click on each adds its filter, whose chip shows it as text too.
    const filterBy = async (button: string) => {
      await page.click(button);
      await page.waitForSelector('#dashboard[data-state="ready"]');
    };
    await filterBy(`#pages-table button.filter:text-is(${JSON.stringify(PATHS[0])})`);
    await page.click('#tab-referrers');
    await filterBy('#referrers-table button.filter');
    await page.click('#tab-campaigns');
    await filterBy('#campaigns-table button.filter');
    const shown = await page.$$eval(PANELS.join(', '), (panels) => panels.map((panel) => panel.textContent ?? '').join('\n'));
    for (const text of [...PATHS, HOST, CAMPAIGN]) expect(shown).toContain(text);
    expect(await page.$$eval('#filter-list li', (chips) => chips.map((chip) => chip.textContent))).toEqual([
      `Page is ${PATHS[0]}×`,
      `Site is ${HOST}×`,
      `Campaign is ${CAMPAIGN}×`,
    ]);

    // Pointed at, as a reader would, so a handler that had been made would fire.
    await page.hover('#campaigns-table');
    await page.click('#tab-referrers');
    for (const panel of ['#referrers-table', '#pages-table', '#filter-list']) await page.hover(panel);
    // The page's next frame and the tasks queued before it: a handler the hover set off has run by then. (An element
    // made from the text, which could still fire later, is looked for below whatever has run.)
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));

    // Nothing was made from them: no image, script or SVG in the panels (the widget's own chart is an SVG in its shadow
    // root, outside them), no image or script in the dashboard, no element with a handler anywhere, nothing run.
    const made = [
      ...PANELS.flatMap((panel) => ['img', 'script', 'svg'].map((tag) => `${panel} ${tag}`)),
      '#dashboard img',
      '#dashboard script',
      'header img',
      'header script',
      '[onerror]',
      '[onload]',
      '[onmouseover]',
    ];
    expect(await page.$$eval(made.join(', '), (nodes) => nodes.map((node) => node.outerHTML))).toEqual([]);
    expect(await page.$$eval('script', (scripts) => scripts.filter((script) => script.textContent?.includes('__pwned')).length)).toBe(0);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(troubles).toEqual([]);
    await context.close();
  });
});
