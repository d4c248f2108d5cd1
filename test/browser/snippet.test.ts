import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hitsMessageSchema, type QueuedHit } from '../../shared/core/message';
import { startTestHost, type TestHost } from '../support/host';
import { closeContexts, pageTroubles, resetPage, startTestSite, type TestSite, workerChromium } from './support';

// The browser reaches both servers from loopback, which is always the site's own read; so the site's front end is
// played by a trusted proxy hop that names the visitor, as Azure Front Door does, and the visitor is a person.
const VISITOR = '203.0.113.7';

let t: TestHost;
let site: TestSite;
let browser: Browser;

const page = (subject: string | null) => `<!doctype html><html lang="en"><head><title>A site</title><link rel="icon" href="data:,">
<script defer src="${t.host.url}/api/assets/headcount.js"${subject ? ` data-subject="${subject}"` : ''}></script></head>
<body><h1>A page of the site</h1><a id="next" href="/about?utm=secret#team">About</a></body></html>`;

/** A page of another site (the same server under another name, so another origin) that links to the site. */
const elsewhere = () => `<!doctype html><html lang="en"><head><title>Another site</title><link rel="icon" href="data:,"></head>
<body><a id="next" href="${site.origin}/about?from=elsewhere">The site's about page</a></body></html>`;

/** The page loads and events on the queue now, every message read with the queue's own schema (test/browser/spa.test.ts follows engagements). */
async function queuedHits(): Promise<QueuedHit[]> {
  return (await t.peek()).flatMap((text) => hitsMessageSchema.parse(JSON.parse(text)).hits).filter((hit) => hit.engagement === undefined);
}

/** Opens a URL and waits for the snippet's beacon to be answered; returns the answer's status. */
async function loadAndBeacon(tab: Page, url: string): Promise<number> {
  const answered = tab.waitForResponse((r) => r.url() === `${t.host.url}/api/beacon`);
  await tab.goto(url);
  return (await answered).status();
}

/**
 * The agent this Chromium sends from a window. Headless, it names itself `HeadlessChrome`, which is automation and a
 * bot by its agent (as it should be); a person's Chromium of the same build says `Chrome` with the same version, and
 * every other header (the language, the fetch metadata, the client hints) is the browser's own either way.
 */
const windowAgent = () =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version().split('.')[0]}.0.0.0 Safari/537.36`;

/** The file's pages, one in a context of its own for each agent, kept across tests (`resetPage`). */
const tabs = new Map<string | null, Page>();

/**
 * A page of a visitor from an address; with `agent` null, the agent headless Chromium sends as it comes. It comes as a
 * new context would: no listener of an earlier test, no cookie, and no operator mark kept by the site's page.
 */
async function visitor(address = VISITOR, agent: string | null = windowAgent()): Promise<Page> {
  let tab = tabs.get(agent);
  if (tab === undefined) {
    tab = await (await browser.newContext(agent === null ? {} : { userAgent: agent })).newPage();
    tabs.set(agent, tab);
  }
  await resetPage(tab);
  // A page of the site without the snippet, so the mark is cleared without a beacon.
  await tab.goto(`${site.origin}/blank`);
  await tab.evaluate(() => localStorage.clear());
  await tab.context().setExtraHTTPHeaders({ 'x-forwarded-for': address });
  return tab;
}

beforeAll(async () => {
  site = await startTestSite();
  t = await startTestHost({ env: { ALLOWED_ORIGINS: site.origin, TRUSTED_PROXY_HOPS: '1' }, queues: false });
  site.page('/', page('tree-42'));
  site.page('/about', page(null));
  site.page('/elsewhere', elsewhere());
  site.page(
    '/blank',
    '<!doctype html><html lang="en"><head><title>Blank</title><link rel="icon" href="data:,"></head><body></body></html>',
  );
  browser = await workerChromium();
});

afterAll(async () => {
  await closeContexts(browser);
  await t?.stop();
  await site?.stop();
});

describe('the tracking snippet on a page of another site', () => {
  test('sends one beacon per page load, the path only and another site that referred it, which reaches the queue as a person', async () => {
    const tab = await visitor();
    const troubles = pageTroubles(tab);
    const beacons: string[] = [];
    tab.on('request', (request) => {
      if (request.url().endsWith('/api/beacon')) beacons.push(request.postData() ?? '');
    });

    const follow = async () => {
      const answered = tab.waitForResponse((r) => r.url() === `${t.host.url}/api/beacon`);
      await tab.click('#next');
      return (await answered).status();
    };

    expect(await loadAndBeacon(tab, `${site.origin}/`)).toBe(202);
    expect(await follow()).toBe(202);
    await tab.goto(site.origin.replace('127.0.0.1', 'localhost') + '/elsewhere');
    expect(await follow()).toBe(202);

    // One beacon a page load, the path without its query or fragment, another site that referred it as its origin, and
    // a page of the site itself without its query (an engagement sent as a page unloads is not among these requests).
    expect(beacons.map((body) => JSON.parse(body))).toEqual([
      { path: '/', subject: 'tree-42', width: 1280 },
      { path: '/about', referrer: `${site.origin}/`, width: 1280 },
      { path: '/about', referrer: `${site.origin.replace('127.0.0.1', 'localhost')}/`, width: 1280 },
    ]);
    const hits = await queuedHits();
    // A link within the site is no source, and not typed either.
    expect(hits.map((hit) => [hit.path, hit.subject, hit.source, hit.self, hit.page_load, hit.screen])).toEqual([
      ['/', 'tree-42', null, false, true, 'laptop'],
      ['/about', null, '(site)', false, true, 'laptop'],
      ['/about', null, 'localhost', false, true, 'laptop'],
    ]);
    expect(hits.every((hit) => hit.person !== null && hit.network === 'x' && !hit.bot && hit.reason === null)).toBe(true);
    expect(troubles).toEqual([]);
  });

  test('a real page load of this Chromium from a home network is a person, by every rule: its own headers pass', async () => {
    await t.queue.clearMessages();
    const tab = await visitor('73.15.1.1');
    expect(await loadAndBeacon(tab, `${site.origin}/`)).toBe(202);
    const hits = await queuedHits();
    expect(hits.map((hit) => [hit.network, hit.bot, hit.reason])).toEqual([['x', false, null]]);
    // The beacon's headers are the browser's own (its language, fetch metadata and client hints, as
    // test/support/browser-headers.ts records them off the wire), and every signal rule read them.
  });

  test('the same Chromium is a bot when its agent says headless, or when it runs on a data-centre network', async () => {
    await t.queue.clearMessages();
    expect(await loadAndBeacon(await visitor('73.15.1.1', null), `${site.origin}/`)).toBe(202);
    expect(await loadAndBeacon(await visitor('3.5.140.2'), `${site.origin}/about`)).toBe(202);
    const hits = await queuedHits();
    expect(hits.map((hit) => [hit.path, hit.bot, hit.reason])).toEqual([
      ['/', true, 'agent'],
      ['/about', true, 'network'],
    ]);
  });

  test('with the operator mark set from the dashboard link, the browser page loads are queued as the site itself', async () => {
    const mark = await fetch(`${t.host.url}/api/admin/mark`, { headers: { authorization: `Bearer ${t.env.OPERATOR_KEY}` } });
    expect(mark.status).toBe(200);
    const { token, links } = (await mark.json()) as { token: string; links: { site: string; mark: string; unmark: string }[] };
    expect(links).toEqual([
      { site: site.origin, mark: `${site.origin}/#headcount-operator=${token}`, unmark: `${site.origin}/#headcount-operator=off` },
    ]);
    await t.queue.clearMessages();

    const tab = await visitor();
    const troubles = pageTroubles(tab);
    expect(await loadAndBeacon(tab, links[0]!.mark)).toBe(202);
    expect(new URL(tab.url()).hash).toBe('');
    expect(await loadAndBeacon(tab, `${site.origin}/about`)).toBe(202);
    expect(await loadAndBeacon(tab, links[0]!.unmark)).toBe(202);
    expect(await loadAndBeacon(tab, `${site.origin}/about`)).toBe(202);

    const hits = await queuedHits();
    expect(hits.map((hit) => [hit.path, hit.self, hit.person === null])).toEqual([
      ['/', true, true],
      ['/about', true, true],
      ['/', false, false],
      ['/about', false, false],
    ]);
    expect(troubles).toEqual([]);
  });

  test('a mark the key did not make is not taken on its word: the page load is a person', async () => {
    await t.queue.clearMessages();
    const tab = await visitor();
    expect(await loadAndBeacon(tab, `${site.origin}/#headcount-operator=${'0'.repeat(64)}`)).toBe(202);
    const hits = await queuedHits();
    expect(hits.map((hit) => [hit.self, hit.person === null])).toEqual([[false, false]]);
  });

  test("sends the four campaign tags of the page's address and nothing else of its query; they reach the queue cleaned", async () => {
    await t.queue.clearMessages();
    const tab = await visitor();
    const beacons: string[] = [];
    tab.on('request', (request) => {
      if (request.url().endsWith('/api/beacon')) beacons.push(request.postData() ?? '');
    });
    expect(
      await loadAndBeacon(
        tab,
        `${site.origin}/?email=jane%40example.com&utm_source=LinkedIn&utm_campaign=Spring%20Launch&session=abc123#top`,
      ),
    ).toBe(202);
    expect(beacons.map((body) => JSON.parse(body))).toEqual([
      { path: '/?utm_source=LinkedIn&utm_campaign=Spring+Launch', subject: 'tree-42', width: 1280 },
    ]);
    const hits = await queuedHits();
    expect(hits.map((hit) => [hit.path, hit.campaign])).toEqual([['/', { source: 'linkedin', medium: null, campaign: 'spring-launch' }]]);
    expect(JSON.stringify(hits)).not.toMatch(/jane|example|session|abc123/);
  });
});

describe('events from the snippet', () => {
  const eventsPage = () => `<!doctype html><html lang="en"><head><title>Events</title><link rel="icon" href="data:,">
<script>window.headcount = window.headcount || function () { (headcount.q = headcount.q || []).push(arguments) };
headcount('signup', { plan: 'pro' });</script>
<script defer src="${t.host.url}/api/assets/headcount.js" data-outbound data-downloads="pdf,zip"></script></head>
<body><button id="cv" data-headcount-event="download-cv">Get the CV</button>
<a id="file" href="/files/cv.pdf">The CV as PDF</a>
<a id="away" href="${t.host.url}/api/assets/headcount-pulse.js">Another site</a></body></html>`;

  test('a call made before the script loaded, a data-headcount-event click, a download and an outbound click that leaves the page are each counted once', async () => {
    site.page('/events', eventsPage());
    site.page('/files/cv.pdf', 'a pdf');
    const before = (await queuedHits()).length;
    const tab = await visitor();
    const sent: string[] = [];
    // The context's requests: a beacon sent as a page unloads is still seen there.
    tab.context().on('request', (request) => {
      if (request.url().endsWith('/api/beacon')) sent.push(request.postData() ?? '');
    });
    const eventsSent = () => sent.filter((text) => text.includes('"event"')).length;
    await tab.goto(`${site.origin}/events`);
    await expect.poll(() => sent.length).toBe(2);
    await tab.click('#cv');
    await expect.poll(eventsSent).toBe(2);
    await tab.click('#away');
    await expect.poll(eventsSent).toBe(3);
    await tab.goto(`${site.origin}/events`);
    await expect.poll(() => sent.length).toBe(6);
    await tab.click('#file');
    await expect.poll(eventsSent).toBe(5);
    const bodies = sent.map((text) => JSON.parse(text) as { event?: string; props?: Record<string, string> });
    const events = bodies.filter((body) => body.event !== undefined);
    expect(events.map((body) => body.event).sort()).toEqual(['download', 'download-cv', 'outbound', 'signup', 'signup']);
    expect(events.find((body) => body.event === 'signup')!.props).toEqual({ plan: 'pro' });
    expect(events.find((body) => body.event === 'download')!.props).toEqual({ path: '/files/cv.pdf' });
    expect(events.find((body) => body.event === 'outbound')!.props).toEqual({ host: new URL(t.host.url).host });
    // Each reached the queue once, as an event of a person and never a page load.
    await expect.poll(async () => (await queuedHits()).slice(before).filter((hit) => hit.event !== undefined).length).toBe(5);
    const queued = (await queuedHits()).slice(before).filter((hit) => hit.event !== undefined);
    // The early call is sent once a load, so twice for the two loads of the page.
    expect(queued.map((hit) => hit.event).sort()).toEqual(['download', 'download-cv', 'outbound', 'signup', 'signup']);
    for (const hit of queued) expect(hit).toMatchObject({ page_load: false, bot: false, self: false });
  });
});
