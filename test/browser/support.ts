import { readFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Cookie, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with nothing that reaches the internet on its own. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
      // A renderer of its own for each site guards a person's browser from other sites' pages; these pages are the
      // app's own, and without it Chromium starts half as many renderers (4 % less of its CPU over the browser tests).
      '--disable-site-isolation-trials',
    ],
  });
}

let workers: Promise<Browser> | undefined;

/**
 * The worker's Chromium: launched by the first browser file the worker runs and kept for the others, which it runs one
 * after another (a launch and a close cost more than a second). A file closes the contexts it opened
 * (`closeContexts`), never the browser; Playwright closes it when the worker exits.
 */
export async function workerChromium(): Promise<Browser> {
  workers ??= launchChromium();
  const browser = await workers;
  if (browser.isConnected()) return browser;
  workers = launchChromium();
  return workers;
}

/** Closes every context of the worker's Chromium, and so every page: what the file that is ending opened. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

/** Playwright's viewport for a new page. */
const PLAYWRIGHT_VIEWPORT = { width: 1280, height: 720 };

/**
 * Brings a page that earlier tests of its file used back to a known state, for a test to open its own address on:
 * these cookies and no others, no route or listener of theirs (on the page or its context), this viewport, and the
 * mouse in a corner (left over a chart it would show a tooltip). The last page stays until the test's own `goto`: a
 * new page, or a stop at about:blank, would start a renderer of its own, which cost more than most tests.
 */
export async function resetPage(page: Page, options: { cookies?: Cookie[]; viewport?: { width: number; height: number } } = {}) {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  for (const event of ['console', 'pageerror', 'dialog', 'request'] as const) {
    page.removeAllListeners(event);
    page.context().removeAllListeners(event);
  }
  await page.context().clearCookies();
  await page.context().addCookies(options.cookies ?? []);
  await page.setViewportSize(options.viewport ?? PLAYWRIGHT_VIEWPORT);
  await page.mouse.move(0, 0);
  return page;
}

/** A plain site on a port of its own, standing in for the site that puts the snippet and the widget on its pages. */
export interface TestSite {
  origin: string;
  /** Serves this HTML at a path (any query); other paths are 404. */
  page(path: string, html: string): void;
  /** Serves a script's text at a path. */
  script(path: string, text: string): void;
  stop(): Promise<void>;
}

export async function startTestSite(): Promise<TestSite> {
  const files = new Map<string, { type: string; text: string }>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const file = files.get(path);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    page: (path, html) => files.set(path, { type: 'text/html; charset=utf-8', text: html }),
    script: (path, text) => files.set(path, { type: 'text/javascript; charset=utf-8', text }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Everything a page said went wrong: uncaught errors and console errors, to assert there were none. */
export function pageTroubles(page: Page): string[] {
  const troubles: string[] = [];
  page.on('pageerror', (error) => troubles.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') troubles.push(`console: ${message.text()}`);
  });
  return troubles;
}

/**
 * Saves a screenshot where the test run keeps its results (test-results/, not tracked). With UPDATE_SCREENSHOTS=1
 * it is also copied to docs/screenshots for the README and docs/pages.md, so an ordinary run leaves the tracked files as they are.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const root = join(__dirname, '..', '..');
  const kept = join(root, 'test-results', 'screenshots', `${name}.png`);
  await mkdir(join(root, 'test-results', 'screenshots'), { recursive: true });
  // From the top: a bar that stays in view would otherwise be drawn where the page was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: kept, fullPage: true });
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  await mkdir(join(root, 'docs', 'screenshots'), { recursive: true });
  await copyFile(kept, join(root, 'docs', 'screenshots', `${name}.png`));
}

/** How many pixels of each canvas on the page are painted: a chart that drew nothing has none, nor one in a hidden tab. */
export function paintedPixels(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const painted: Record<string, number> = {};
    for (const figure of document.querySelectorAll<HTMLElement>('[data-chart]')) {
      const canvas = figure.querySelector('canvas');
      if (!canvas) continue;
      if (canvas.width === 0 || canvas.height === 0) {
        painted[figure.dataset.chart!] = 0;
        continue;
      }
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) count += 1;
      painted[figure.dataset.chart!] = count;
    }
    return painted;
  });
}

/**
 * Every axe-core violation on the page, whatever its impact, as "moderate landmark-unique (1)": the dashboard is held
 * to none at all. axe is injected by the test, which the page's own policy rightly refuses: the context must bypass it.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.addScriptTag({ content: readFileSync(join(__dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8') });
  }
  const result = await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }));
  return (result.violations as { id: string; impact: string; nodes: unknown[] }[]).map(
    (violation) => `${violation.impact} ${violation.id} (${violation.nodes.length})`,
  );
}
