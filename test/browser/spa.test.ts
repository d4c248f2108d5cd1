import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hitsMessageSchema, type QueuedHit } from '../../shared/core/message';
import type { HitQueue } from '../../shared/core/ports/queue';
import { fixedClock } from '../../shared/core/ports/clock';
import { azureHitQueue, queueClient } from '../../adapters/azure-hit-queue';
import { containerOf } from '../support/cosmos';
import { testEnv } from '../support/env';
import { startTestHost, type TestHost } from '../support/host';
import { closeContexts, pageTroubles, startTestSite, type TestSite, workerChromium } from './support';

// A single-page app's route changes are page loads, and each page view's engagement is sent once, as the server
// receives and keeps them. The page's clock is Playwright's, paused and moved by the test: nothing waits for wall-clock
// time. A beacon sent as a page unloads is not among the context's requests, so the hits the server queued are read.
const VISITOR = '203.0.113.9';

/**
 * The site's front end, a trusted proxy hop that names the visitor, as Azure Front Door does (the browser reaches the
 * app from loopback, always the site's own read); it also says `Chrome` where headless Chromium's agent says
 * `HeadlessChrome`, a bot's. Playwright's per-page agent and headers do not reach a beacon sent as a page unloads.
 */
async function frontDoor(target: string): Promise<{ url: string; server: Server }> {
  const server = createServer((asked, answer) => {
    const agent = String(asked.headers['user-agent']).replace('HeadlessChrome', 'Chrome');
    const headers = { ...asked.headers, 'x-forwarded-for': VISITOR, 'user-agent': agent };
    const onward = forward(new URL(asked.url!, target), { method: asked.method, headers }, (reply) => {
      answer.writeHead(reply.statusCode!, reply.headers);
      reply.pipe(answer);
    });
    asked.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
const START = Date.parse('2026-12-01T10:00:00Z');
/** The server's clock, moved with the page's. */
const clock = fixedClock(new Date(START));

let t: TestHost;
let door: { url: string; server: Server };
let site: TestSite;
let browser: Browser;
const queued: QueuedHit[] = [];

interface Beacon {
  path: string;
  referrer?: string;
  width?: number;
  engagement?: { ms: number; scroll: number; since_ms?: number };
}

const head = (attributes = '') => `<!doctype html><html lang="en"><head><title>An app</title><link rel="icon" href="data:,">
<script defer src="${door.url}/api/assets/headcount.js"${attributes}></script></head>`;

/** A router as Next.js's or React Router's: links that change the route with history.pushState, no page load. */
const spa = () => `${head()}<body><h1>An app</h1>
<button id="two" onclick="history.pushState({}, '', '/spa/two')">Two</button>
<button id="three" onclick="history.pushState({}, '', '/spa/three')">Three</button>
<button id="same" onclick="history.pushState({ tab: 1 }, '', '/spa/three?tab=1')">Same route</button>
<div style="height: 3000px"></div></body></html>`;

const hashed = () => `${head(' data-hash')}<body><h1>A hash-routed app</h1>
<a id="b" href="#/b">B</a> <a id="c" href="#/c">C</a> <a id="c-again" href="#/c?sort=new">C sorted</a></body></html>`;

const article = () => `${head()}<body><h1>An article</h1><div style="height: 4000px"></div></body></html>`;

/** A visitor's page, its clock paused until the test moves it. */
async function visitor(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.clock.install({ time: clock.now() });
  await page.clock.pauseAt(clock.now().getTime() + 1_000);
  clock.advance(1_000);
  return page;
}

/** The visitor stays on the page this long, by the page's clock and the server's. */
async function stay(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
  clock.advance(ms);
}

/** The beacons the page sent while it stayed, as the context saw them. */
function beaconsOf(page: Page): Beacon[] {
  const sent: Beacon[] = [];
  page.context().on('request', (request) => {
    if (request.url() === `${door.url}/api/beacon`) sent.push(JSON.parse(request.postData() ?? '{}') as Beacon);
  });
  return sent;
}

const loads = () => queued.filter((hit) => hit.page_load);
const engagements = () => queued.filter((hit) => hit.engagement !== undefined);

/** Today's card, once the queue is kept and the fold has run. */
async function foldedCard(): Promise<{
  headline: { page_loads: number };
  sources: Record<string, number>;
  referrers: unknown[];
  entry_pages: Array<{ path: string }>;
}> {
  await t.host.drain();
  await t.fold();
  const answer = await fetch(`${t.host.url}/api/admin/activity?days=1`, { headers: { 'x-operator-key': t.env.OPERATOR_KEY! } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as never;
}

beforeAll(async () => {
  site = await startTestSite();
  const env = testEnv({ ALLOWED_ORIGINS: site.origin, TRUSTED_PROXY_HOPS: '1' });
  // Every message the endpoints queue, as it is sent: a peek would race the host's listener.
  const real = azureHitQueue(queueClient({ connectionString: env.AzureWebJobsStorage! }, env.HITS_QUEUE!));
  const hitQueue: HitQueue = {
    sendAll: async (messages) => {
      for (const text of messages) queued.push(...hitsMessageSchema.parse(JSON.parse(Buffer.from(text, 'base64').toString('utf8'))).hits);
      return real.sendAll(messages);
    },
  };
  t = await startTestHost({ env, overrides: { hitQueue, clock } });
  await containerOf(t.env);
  door = await frontDoor(t.host.url);
  site.page('/spa', spa());
  site.page('/hash', hashed());
  site.page('/article', article());
  site.page(
    '/blank',
    '<!doctype html><html lang="en"><head><title>Blank</title><link rel="icon" href="data:,"></head><body></body></html>',
  );
  browser = await workerChromium();
});

beforeEach(() => {
  queued.length = 0;
});

afterAll(async () => {
  await closeContexts(browser);
  door?.server.closeAllConnections();
  door?.server.close();
  await t?.stop();
  await site?.stop();
});

describe('the snippet on a single-page app', () => {
  test('three route changes are three more pageviews, linked from the page before, each page view sending its engagement once', async () => {
    const page = await visitor();
    const troubles = pageTroubles(page);
    const sent = beaconsOf(page);
    await page.goto(`${site.origin}/spa`);
    await expect.poll(() => sent.length).toBe(1);
    await stay(page, 4_000);
    await page.click('#two');
    await stay(page, 6_000);
    await page.click('#three');
    await stay(page, 2_000);
    // The same route with another query, and back to it, send nothing.
    await page.click('#same');
    await page.goBack();
    await page.goBack();
    await expect.poll(() => sent.length).toBe(7);
    await stay(page, 3_000);
    await page.goto(`${site.origin}/blank`);
    await expect.poll(() => engagements().length).toBe(4);

    expect(sent.filter((beacon) => beacon.engagement === undefined)).toEqual([
      { path: '/spa', width: 1280 },
      { path: '/spa/two', referrer: `${site.origin}/spa`, width: 1280 },
      { path: '/spa/three', referrer: `${site.origin}/spa/two`, width: 1280 },
      { path: '/spa/two', referrer: `${site.origin}/spa/three`, width: 1280 },
    ]);
    // Sent at each route change, how long after its own page load.
    expect(sent.flatMap((beacon) => (beacon.engagement ? [[beacon.path, beacon.engagement.ms, beacon.engagement.since_ms]] : []))).toEqual([
      ['/spa', 4_000, 4_000],
      ['/spa/two', 6_000, 6_000],
      ['/spa/three', 2_000, 2_000],
    ]);
    // Queued: four page loads, the three route changes from inside the site, and four engagements, the last sent as the
    // page was left, none of them a page load.
    expect(loads().map((hit) => [hit.path, hit.source, hit.screen])).toEqual([
      ['/spa', null, 'laptop'],
      ['/spa/two', '(site)', 'laptop'],
      ['/spa/three', '(site)', 'laptop'],
      ['/spa/two', '(site)', 'laptop'],
    ]);
    expect(engagements().map((hit) => [hit.path, hit.engagement!.ms, hit.page_load, hit.source, hit.screen])).toEqual([
      ['/spa', 4_000, false, null, undefined],
      ['/spa/two', 6_000, false, null, undefined],
      ['/spa/three', 2_000, false, null, undefined],
      ['/spa/two', 3_000, false, null, undefined],
    ]);
    for (const hit of engagements()) expect(hit.engagement!.scroll).toBeGreaterThan(0);
    expect(queued.every((hit) => !hit.bot && hit.person !== null)).toBe(true);
    expect(troubles).toEqual([]);

    // The first load plus three, the first from no source: the site linking itself is neither a source nor typed.
    const card = await foldedCard();
    expect(card.headline.page_loads).toBe(4);
    expect(card.sources).toMatchObject({ linkedin: 0, github: 0, search: 0, other: 0, typed: 1 });
    expect(card.referrers).toEqual([]);
    expect(card.entry_pages.map((row) => row.path)).toEqual(['/spa']);
  });

  test('with data-hash, a hash route is a page of its own, and its query is no new route', async () => {
    const page = await visitor();
    const sent = beaconsOf(page);
    await page.goto(`${site.origin}/hash`);
    await expect.poll(() => sent.length).toBe(1);
    await stay(page, 1_000);
    await page.click('#b');
    await stay(page, 2_000);
    await page.click('#c');
    await page.click('#c-again');
    await expect.poll(() => sent.length).toBe(5);
    await stay(page, 5_000);
    await page.goto(`${site.origin}/blank`);
    await expect.poll(() => engagements().length).toBe(3);
    expect(sent.map((beacon) => [beacon.path, beacon.referrer ?? null, beacon.engagement?.ms ?? null])).toEqual([
      ['/hash', null, null],
      ['/hash', null, 1_000],
      ['/hash#/b', `${site.origin}/hash`, null],
      ['/hash#/b', null, 2_000],
      ['/hash#/c', `${site.origin}/hash#/b`, null],
    ]);
    expect(loads().map((hit) => hit.path)).toEqual(['/hash', '/hash#/b', '/hash#/c']);
    expect(engagements().map((hit) => [hit.path, hit.engagement!.ms])).toEqual([
      ['/hash', 1_000],
      ['/hash#/b', 2_000],
      ['/hash#/c', 5_000],
    ]);
  });

  test('a page read for a known time, then left, sends an engagement within 10 % of it, queued at its page load', async () => {
    const page = await visitor();
    const sent = beaconsOf(page);
    await page.goto(`${site.origin}/article`);
    await expect.poll(() => sent.length).toBe(1);
    await page.mouse.wheel(0, 1_000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await stay(page, 90_000);
    await page.goto(`${site.origin}/blank`);
    await expect.poll(() => engagements().length).toBe(1);
    const [load] = loads();
    const [engaged] = engagements();
    expect(Math.abs(engaged!.engagement!.ms - 90_000)).toBeLessThanOrEqual(9_000);
    // Deeper than the first screen (720 of 4000 px), not to the end.
    expect(engaged!.engagement!.scroll).toBeGreaterThan(18);
    expect(engaged!.engagement!.scroll).toBeLessThan(100);
    // Queued at its page load's instant (when it was sent, less its since_ms), so it joins that visit.
    expect(engaged!.at).toBe(load!.at);
    expect(engaged!.token).toBe(load!.token);
  });
});
