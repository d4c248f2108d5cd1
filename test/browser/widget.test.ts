import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestHost, type TestHost } from '../support/host';
import { seededHost } from './fixture';
import { closeContexts, pageTroubles, resetPage, screenshot, startTestSite, type TestSite, workerChromium } from './support';

let site: TestSite;
let browser: Browser;
/** The file's one page, which each test takes back to a known state (`resetPage`). */
let tab: Page;

const hostPage = (
  script: string,
  attributes = '',
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A park's first screen</title>
<link rel="icon" href="data:,"><style>body{font:18px/1.4 Georgia,serif;margin:2rem;color:#1d2b1f}</style>
<script defer src="${script}"></script></head>
<body><h1>The park's trees</h1><p>Who has come to see them:</p><headcount-pulse${attributes}></headcount-pulse></body></html>`;

/** What the widget shows, from its shadow root: the figure, the words, and the bars' label and count. */
async function shown(page: Page) {
  await page.waitForSelector('headcount-pulse[data-state]:not([data-state="loading"])');
  return page.evaluate(() => {
    const widget = document.querySelector('headcount-pulse')!;
    const root = widget.shadowRoot!;
    return {
      state: widget.getAttribute('data-state'),
      figure: root.querySelector('strong')!.textContent,
      words: root.querySelector('span')!.textContent,
      bars: root.querySelectorAll('svg rect').length,
      label: root.querySelector('svg')!.getAttribute('aria-label'),
    };
  });
}

async function pulseOf(t: TestHost): Promise<any> {
  return (await fetch(`${t.host.url}/api/pulse`)).json();
}

beforeAll(async () => {
  [site, browser] = await Promise.all([startTestSite(), workerChromium()]);
  tab = await browser.newPage();
});

afterAll(async () => {
  await closeContexts(browser);
  await site?.stop();
});

describe('the first-screen widget on a plain page of another site', () => {
  test('shows the visits by people since the first day, with the last 30 days drawn, as the pulse answers', async () => {
    const t = await seededHost({ ALLOWED_ORIGINS: site.origin });
    try {
      site.page('/', hostPage(`${t.host.url}/api/assets/headcount-pulse.js`));
      const page = await resetPage(tab, { viewport: { width: 480, height: 260 } });
      const troubles = pageTroubles(page);
      await page.goto(`${site.origin}/`);
      const pulse = await pulseOf(t);
      expect(pulse.visits_all_time).toBe(8);
      expect(await shown(page)).toEqual({
        state: 'ready',
        figure: String(pulse.visits_all_time),
        words: 'visits by people since 18 Oct',
        bars: 30,
        label: `The last 30 days of visits by people, ${pulse.visits_by_day.map((d: any) => d.visits).join(', ')}`,
      });
      expect(troubles).toEqual([]);
      await screenshot(page, 'widget');
    } finally {
      await t.stop();
    }
  });

  test('before the visits are counted, shows the people counted once since the day counting began', async () => {
    const t = await seededHost({ ALLOWED_ORIGINS: site.origin }, { visits: false });
    try {
      site.page('/', hostPage(`${t.host.url}/api/assets/headcount-pulse.js`));
      const page = await resetPage(tab);
      const troubles = pageTroubles(page);
      await page.goto(`${site.origin}/`);
      const pulse = await pulseOf(t);
      expect(pulse.visits_all_time).toBeNull();
      const said = await shown(page);
      expect([said.state, said.figure, said.words, said.bars]).toEqual(['ready', String(pulse.people_all_time), 'people since 18 Oct', 30]);
      expect(said.label).toBe(`The last 30 days of new people, ${pulse.people_new_by_day.map((d: any) => d.people).join(', ')}`);
      expect(troubles).toEqual([]);
    } finally {
      await t.stop();
    }
  });

  test('with the app stopped it shows a dash, and the page has no error', async () => {
    const t = await startTestHost({ env: { ALLOWED_ORIGINS: site.origin }, queues: false });
    const pulse = `${t.host.url}/api/pulse`;
    await t.stop();
    // The site keeps its own copy of the widget (as a site may), so only the pulse is out of reach.
    site.script('/headcount-pulse.js', readFileSync(join(__dirname, '..', '..', 'public', 'headcount-pulse.js'), 'utf8'));
    site.page('/', hostPage('/headcount-pulse.js', ` endpoint="${pulse}"`));
    const page = await resetPage(tab);
    const troubles = pageTroubles(page);
    await page.goto(`${site.origin}/`);
    expect(await shown(page)).toEqual({ state: 'unread', figure: '–', words: 'people', bars: 0, label: 'No days read' });
    expect(await page.textContent('h1')).toBe("The park's trees");
    // The one line is the browser's own network log of the refused connection; nothing of the page's.
    expect(troubles).toEqual(['console: Failed to load resource: net::ERR_CONNECTION_REFUSED']);

    // And when the widget's script itself cannot be loaded from the stopped app, the page carries on without it.
    site.page('/gone', hostPage(`${t.host.url}/api/assets/headcount-pulse.js`));
    const gone = await resetPage(tab);
    const goneTroubles = pageTroubles(gone);
    await gone.goto(`${site.origin}/gone`, { waitUntil: 'load' });
    expect(await gone.evaluate(() => customElements.get('headcount-pulse') === undefined)).toBe(true);
    expect(goneTroubles.filter((line) => !line.includes('ERR_CONNECTION_REFUSED'))).toEqual([]);
  });
});
