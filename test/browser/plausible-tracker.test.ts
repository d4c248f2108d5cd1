import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hitsMessageSchema, type QueuedHit } from '../../shared/core/message';
import { startTestHost, type TestHost } from '../support/host';
import { closeContexts, pageTroubles, startTestSite, type TestSite, workerChromium } from './support';

// Plausible's published tracker, from npm, pointed at headcount: a page that uses it is counted as the snippet's page
// is (its page loads, a custom event, a single-page app's route change), by changing only its endpoint.

const VISITOR = '203.0.113.8';
const tracker = readFileSync(join(process.cwd(), 'node_modules/@plausible-analytics/tracker/plausible.js'), 'utf8');

let t: TestHost;
let site: TestSite;
let browser: Browser;

const page = () => `<!doctype html><html lang="en"><head><title>A site</title><link rel="icon" href="data:,">
<script type="module">
import { init, track } from '/plausible.js';
init({ domain: 'site.example', endpoint: '${t.host.url}/api/event', captureOnLocalhost: true });
window.signup = () => track('signup', { props: { plan: 'pro' } });
</script></head><body><h1>A single-page app</h1></body></html>`;

async function queuedHits(): Promise<QueuedHit[]> {
  return (await t.peek()).flatMap((text) => hitsMessageSchema.parse(JSON.parse(text)).hits);
}

const sent = (tab: Page) => tab.waitForResponse((r) => r.url() === `${t.host.url}/api/event`);

beforeAll(async () => {
  site = await startTestSite();
  t = await startTestHost({ env: { ALLOWED_ORIGINS: site.origin, TRUSTED_PROXY_HOPS: '1' }, queues: false });
  site.script('/plausible.js', tracker);
  site.page('/', page());
  browser = await workerChromium();
});

afterAll(async () => {
  await closeContexts(browser);
  await t?.stop();
  await site?.stop();
});

describe("Plausible's tracker pointed at headcount", () => {
  test('counts its page load, its route change, its custom event and its engagement, and keeps no query but campaign tags', async () => {
    const agent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version().split('.')[0]}.0.0.0 Safari/537.36`;
    const context = await browser.newContext({ userAgent: agent });
    // The site's front end names the visitor to headcount, as a trusted proxy hop does, out of the page's sight.
    await context.route(`${t.host.url}/**`, (route) =>
      route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': VISITOR } }),
    );
    // Plausible's tracker ignores a browser driven by automation; this one plays a person's.
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }));
    const tab = await context.newPage();
    const troubles = pageTroubles(tab);
    const first = sent(tab);
    await tab.goto(`${site.origin}/?utm_source=newsletter&secret=hunter2`);
    expect((await first).status()).toBe(202);
    const routed = sent(tab);
    await tab.evaluate(() => history.pushState({}, '', '/pricing'));
    expect((await routed).status()).toBe(202);
    const event = sent(tab);
    await tab.evaluate(() => (window as unknown as { signup: () => void }).signup());
    expect((await event).status()).toBe(202);
    expect(troubles).toEqual([]);

    // The tracker also sends the first page's engagement when the route changes: the snippet's engagement, on its page.
    const counted = async () => (await queuedHits()).filter((hit) => hit.engagement === undefined);
    await expect.poll(async () => (await counted()).length).toBe(3);
    const engaged = (await queuedHits()).filter((hit) => hit.engagement !== undefined);
    expect(engaged.map((hit) => [hit.path, hit.page_load])).toEqual([['/', false]]);
    const hits = await counted();
    expect(hits.map((hit) => [hit.path, hit.page_load ?? false, hit.event ?? null, hit.bot])).toEqual([
      ['/', true, null, false],
      ['/pricing', true, null, false],
      ['/pricing', false, 'signup', false],
    ]);
    expect(hits[0]!.campaign?.source).toBe('newsletter');
    expect(hits[2]!.props).toEqual({ plan: 'pro' });
    expect(JSON.stringify(await t.peek())).not.toContain('hunter2');
    await context.close();
  });
});
