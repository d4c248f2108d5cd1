import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';
import { adminRead } from './fixture';
import { closeContexts, pageTroubles, workerChromium } from './support';

// The dashboard of a deployment of three sites, in headless Chromium: the site switcher (all sites or one, kept in the
// address), and the read-only view a shared link opens, which reads nothing of the Admin's and shows no admin action.

const NOW = '2026-10-23T20:00:00Z';
const SITES = 'blog.example=https://blog.example|docs.example=https://docs.example|shop.example=';
const PASSWORD = 'a long enough password';

let t: TestHost;
let browser: Browser;
let operator: Page;
let viewer: Page;
/** Every path the viewer's page asked the app for. */
const asked: string[] = [];

const hit = (site: string, address: string, path: string) => ({
  at: '2026-10-23T19:00:00Z',
  address,
  user_agent: AGENTS.firefoxLinux,
  path,
  site,
  page_load: true,
});

async function makeLink(body: Record<string, unknown>): Promise<string> {
  const made = await post(`${t.host.url}/api/admin/links`, body, { authorization: `Bearer ${t.env.OPERATOR_KEY!}` });
  expect(made.status).toBe(201);
  return made.json.token as string;
}

const figure = (page: Page, name: string) => page.textContent(`[data-figure="${name}"] .figure`);
const shown = (page: Page, selector: string) => page.isVisible(selector);

beforeAll(async () => {
  t = await startTestHost({ env: { ALLOWED_ORIGINS: '', SITES }, overrides: { clock: fixedClock(NOW) } });
  await containerOf(t.env);
  const hits = [
    hit('blog.example', '203.0.113.1', '/'),
    hit('blog.example', '203.0.113.2', '/about'),
    hit('docs.example', '203.0.113.2', '/start'),
    hit('docs.example', '203.0.113.3', '/start'),
    hit('shop.example', '203.0.113.4', '/cart'),
  ];
  const sent = await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! });
  expect(sent.status).toBe(202);
  await t.host.drain();
  await t.fold();
  browser = await workerChromium();
  operator = await (await browser.newContext()).newPage();
  viewer = await (await browser.newContext()).newPage();
  viewer.on('request', (request) => asked.push(new URL(request.url()).pathname));
});

afterAll(async () => {
  await closeContexts(browser);
  await t?.stop();
});

/** Every figure the page shows, by its tile's name. */
const figures = (page: Page) =>
  page.$$eval('[data-figure]', (tiles) =>
    Object.fromEntries(
      tiles
        .filter((tile) => tile.checkVisibility())
        .map((tile) => [tile.getAttribute('data-figure'), tile.querySelector('.figure')?.textContent ?? '']),
    ),
  );

/** A visit's length as the tile says it under a minute and under an hour (the fixture's visits are shorter). */
const secondsWords = (seconds: number) =>
  seconds < 60 ? `${Math.round(seconds)}s` : `${Math.floor(seconds / 60)}m ${String(Math.round(seconds) % 60).padStart(2, '0')}s`;

/** What the API answers for a site, as the page's tiles name it. */
async function apiFigures(site: string): Promise<Record<string, string>> {
  const card = await adminRead(t, `/api/admin/activity?days=30&site=${site}`);
  const count = await adminRead(t, `/api/admin/visitors/people?site=${site}`);
  const now = await adminRead(t, `/api/admin/now?site=${site}`);
  const expected = {
    people: card.people_in_period.estimate,
    returning: card.headline.returning,
    visits: card.headline.visits,
    page_loads: card.headline.page_loads,
    people_all_time: count.people_all_time,
    now: now.people_last_30_minutes,
    all_people: count.people_all_time,
    all_visits: count.visits.all_time,
    all_scanners: count.scanners_left_out,
    all_new_today: count.people_new_today,
    all_new_month: count.people_new_month,
  };
  const { bounce_rate: bounce, visit_duration: duration } = card.headline as { bounce_rate: number | null; visit_duration: number | null };
  return {
    ...Object.fromEntries(Object.entries(expected).map(([name, n]) => [name, String(Math.round(n))])),
    bounce_rate: bounce === null ? '–' : `${bounce}%`,
    visit_duration: duration === null ? '–' : secondsWords(duration),
  };
}

describe('the site switcher', () => {
  test('reads the first site by default, naming it, and all sites or another once picked, keeping it in the address', async () => {
    await operator.goto(`${t.host.url}/api/admin`);
    await operator.waitForSelector('body[data-ready="true"]');
    await operator.fill('#key', t.env.OPERATOR_KEY!);
    await operator.press('#key', 'Enter');
    await operator.waitForSelector('#dashboard[data-state="ready"]');
    await operator.waitForSelector('#sites:not([hidden])');
    const options = await operator.$$eval('#site-picker option', (nodes) => nodes.map((node) => node.textContent));
    expect(options).toEqual(['All sites', 'blog.example', 'docs.example', 'shop.example']);
    // The view shows one site and the switcher names it: the first declared, not all of them.
    expect(await operator.inputValue('#site-picker')).toBe('blog.example');
    const blog = await adminRead(t, '/api/admin/visitors/people?site=blog.example');
    const all = await adminRead(t, '/api/admin/visitors/people?site=*');
    expect([blog.people_all_time, all.people_all_time]).toEqual([2, 4]);
    expect(await figure(operator, 'people_all_time')).toBe('2');
    await operator.selectOption('#site-picker', '*');
    await operator.waitForFunction(() => document.querySelector('#dashboard')?.getAttribute('data-period')?.includes('site=*'));
    await operator.waitForFunction(() => document.querySelector('[data-figure="people_all_time"] .figure')?.textContent?.trim() === '4');
    await operator.selectOption('#site-picker', 'docs.example');
    await operator.waitForFunction(() => document.querySelector('#dashboard')?.getAttribute('data-period')?.includes('site=docs.example'));
    expect(new URL(operator.url()).searchParams.get('site')).toBe('docs.example');
    const docs = await adminRead(t, '/api/admin/activity?days=30&site=docs.example');
    expect(await figure(operator, 'people')).toBe(String(docs.people_in_period.estimate));
    expect(docs.people_in_period.estimate).toBe(2);
    // Reloaded, the address keeps the site.
    await operator.reload();
    await operator.waitForSelector('#dashboard[data-state="ready"]');
    expect(await operator.inputValue('#site-picker')).toBe('docs.example');
  });

  test("shows one site at a time: after a switch every figure on the page is the new site's", async () => {
    await operator.goto(`${t.host.url}/api/admin?site=*`);
    await operator.waitForSelector('#dashboard[data-state="ready"]');
    expect(await figures(operator)).toMatchObject(await apiFigures('*'));
    for (const site of ['shop.example', 'blog.example', '*']) {
      const asked: string[] = [];
      const listen = (request: { url: () => string }) => asked.push(new URL(request.url()).pathname);
      operator.on('request', listen);
      await operator.selectOption('#site-picker', site);
      await operator.waitForFunction(
        (name) =>
          document.querySelector('#dashboard')?.getAttribute('data-state') === 'ready' &&
          new URLSearchParams(document.querySelector('#dashboard')?.getAttribute('data-period') ?? '').get('site') === name,
        site,
      );
      operator.off('request', listen);
      expect(await figures(operator), site).toEqual(await apiFigures(site));
      // Every panel was read again for the new site: the count, the subjects and now with the card.
      for (const path of ['/api/admin/visitors/people', '/api/admin/activity', '/api/admin/subjects', '/api/admin/now'])
        expect(asked, `${site} ${path}`).toContain(path);
    }
  });

  test("shows none of the last site's figures while the new site's are read", async () => {
    await operator.goto(`${t.host.url}/api/admin?site=*`);
    await operator.waitForSelector('#dashboard[data-state="ready"]');
    expect(await figure(operator, 'people_all_time')).toBe('4');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await operator.route(/\/api\/admin\/visitors\/people\?site=shop\.example$/, async (route) => {
      await held;
      await route.continue();
    });
    await operator.selectOption('#site-picker', 'shop.example');
    await operator.waitForFunction(() => document.querySelector('#dashboard')?.getAttribute('data-state') === 'loading');
    const meanwhile = await figures(operator);
    expect(Object.values(meanwhile).every((shown) => shown === '–')).toBe(true);
    release();
    await operator.waitForSelector('#dashboard[data-state="ready"]');
    expect(await figures(operator)).toEqual(await apiFigures('shop.example'));
    await operator.unrouteAll();
  });
});

describe('signing in', () => {
  test('lands at the top of the page, on a desktop and on a phone', async () => {
    for (const viewport of [
      { width: 1280, height: 720 },
      { width: 375, height: 740 },
    ]) {
      const page = await (await browser.newContext({ viewport })).newPage();
      await page.goto(`${t.host.url}/api/admin`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.fill('#key', t.env.OPERATOR_KEY!);
      await page.press('#key', 'Enter');
      await page.waitForSelector('#dashboard[data-state="ready"]');
      expect(await page.evaluate(() => window.scrollY), `${viewport.width} px wide`).toBe(0);
      // The tiles' names stand below the sticky bar, not under it.
      const bar = await page.$eval('header.bar', (node) => node.getBoundingClientRect().bottom);
      const tiles = await page.$eval('#tiles', (node) => node.getBoundingClientRect().top);
      expect(tiles, `${viewport.width} px wide`).toBeGreaterThanOrEqual(bar);
      await page.context().close();
    }
  });
});

describe('the shared links panel', () => {
  test('makes a link for a site, shows its address once, lists it without its token, and revokes it', async () => {
    await operator.goto(`${t.host.url}/api/admin`);
    await operator.waitForSelector('#dashboard[data-state="ready"]');
    await operator.click('#links summary');
    await operator.selectOption('#link-site', 'shop.example');
    await operator.fill('#link-label', 'for the shop');
    await operator.click('#link-button');
    await operator.waitForSelector('#link-made:not([hidden])');
    const address = await operator.inputValue('#link-address');
    const token = new URLSearchParams(new URL(address).hash.slice(1)).get('share')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const row = operator.locator('.link-row', { hasText: 'for the shop' });
    await row.waitFor();
    expect(await operator.textContent('#links-body')).not.toContain(token);
    // The address is whole in its box, beside a Copy button.
    expect((await operator.locator('#link-address').boundingBox())!.width).toBeGreaterThan(400);
    await operator.click('#link-copy');
    await operator.waitForFunction(() => /^(Copied|Selected)/.test(document.querySelector('#link-message')?.textContent ?? ''));
    const opened = await fetch(`${t.host.url}/api/shared/activity`, { headers: { 'x-share-token': token } });
    expect(((await opened.json()) as { headline: { people: number } }).headline.people).toBe(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await operator.locator('.link-row', { hasText: 'for the shop · revoked' }).waitFor();
    expect((await fetch(`${t.host.url}/api/shared/activity`, { headers: { 'x-share-token': token } })).status).toBe(401);
  });
});

describe('the API keys panel', () => {
  test('makes a key for a site, shows it once, lists it without it, and revokes it at once', async () => {
    await operator.goto(`${t.host.url}/api/admin`);
    await operator.waitForSelector('#dashboard[data-state="ready"]');
    await operator.click('#settings-open');
    await operator.click('#keys summary');
    await operator.selectOption('#key-site', 'docs.example');
    await operator.fill('#key-name', 'grafana');
    await operator.click('#key-button');
    await operator.waitForSelector('#key-made:not([hidden])');
    const key = await operator.inputValue('#key-value');
    expect(key).toMatch(/^hck_[A-Za-z0-9_-]{32}$/);
    const row = operator.locator('#keys-body .link-row', { hasText: 'grafana · docs.example' });
    await row.waitFor();
    expect(await operator.textContent('#keys-body')).not.toContain(key);
    const ask = () =>
      fetch(`${t.host.url}/api/v2/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ metrics: ['visitors'], date_range: 'day' }),
      });
    const answer = await ask();
    expect(((await answer.json()) as { results: { metrics: number[] }[] }).results[0]!.metrics).toEqual([2]);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await operator.locator('#keys-body .link-row', { hasText: 'revoked' }).waitFor();
    expect((await ask()).status).toBe(401);
  });
});

/** Opens a shared link's address in the viewer's page, afresh (a change of fragment alone loads nothing). */
async function openLink(token: string, query = '') {
  await viewer.goto(`${t.host.url}/api/admin${query}#share=${token}`);
  await viewer.reload();
  await viewer.waitForSelector('body[data-ready="true"]');
}

/** Every answer the viewer's page had from the app, as `status path`. */
const answered: string[] = [];

describe('the shared links panel, in words', () => {
  test("offers the site on screen, and lists a link's period and filters as the picker and the chips say them", async () => {
    await operator.goto(`${t.host.url}/api/admin?site=docs.example&filter=page:/start`);
    await operator.waitForSelector('#dashboard[data-state="ready"]');
    await operator.click('#links summary');
    expect(await operator.inputValue('#link-site')).toBe('docs.example');
    await operator.fill('#link-label', 'in words');
    await operator.selectOption('#link-days', '7');
    await operator.click('#link-button');
    const row = operator.locator('.link-row', { hasText: 'in words' });
    await row.waitFor();
    expect(await row.locator('span').textContent()).toBe('docs.example · in words · 7 days · Page is /start');
  });
});

describe('the read-only view of a shared link', () => {
  test("shows the link's site's panels and nothing of the Admin's, reading only the shared routes", async () => {
    const token = await makeLink({ site: 'blog.example', label: 'for the client' });
    asked.length = 0;
    await openLink(token);
    await viewer.waitForSelector('#dashboard[data-state="ready"]');
    expect(await viewer.getAttribute('body', 'data-shared')).toBe('true');
    expect(await viewer.textContent('#share-words')).toBe('Read-only: blog.example, for the client.');
    expect(await figure(viewer, 'people')).toBe('2');
    for (const selector of ['#sign-in', '#sign-out', '#export', '#day', '#subjects', '#now', '#links', '#sites'])
      expect(await shown(viewer, selector), selector).toBe(false);
    for (const selector of ['#pages', '#sources', '#countries']) expect(await shown(viewer, selector), selector).toBe(true);
    // The page itself is /api/admin and the widget's preview reads the public pulse; every other read is a shared
    // route's, and the token never travels in an address.
    const reads = asked.filter(
      (path) => path.startsWith('/api/') && !path.startsWith('/api/assets/') && !['/api/admin', '/api/pulse'].includes(path),
    );
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((path) => !path.startsWith('/api/shared/'))).toEqual([]);
    expect(asked.some((path) => path.includes(token))).toBe(false);
    expect(pageTroubles(viewer)).toEqual([]);
  });

  test('shows exactly what was shared: its period alone, its filter as a fixed chip, nothing all time and nothing now', async () => {
    const token = await makeLink({ site: 'blog.example', days: '7', filters: ['page:/about'] });
    await openLink(token, '?period=30d');
    await viewer.waitForSelector('#dashboard[data-state="ready"]');
    const offered = await viewer.$$eval('#period-chips label:not([hidden])', (labels) => labels.map((label) => label.textContent?.trim()));
    expect(offered).toEqual(['7 days']);
    expect(await viewer.isChecked('input[name="period"][value="7d"]')).toBe(true);
    expect(await viewer.textContent('#main-caption')).toContain('the last 7 days');
    expect(await viewer.textContent('[data-figure="people"] .change')).not.toContain('30 days');
    const chip = viewer.locator('#filter-list .chip');
    expect(await chip.count()).toBe(1);
    expect(await chip.textContent()).toBe('Page is /about');
    expect(await chip.locator('button').count()).toBe(0);
    const card = await (
      await fetch(`${t.host.url}/api/shared/activity`, { headers: { 'x-share-token': token, 'x-forwarded-for': '198.51.100.50' } })
    ).json();
    expect(await figure(viewer, 'people')).toBe(String(card.people_in_period.estimate));
    expect(card.people_in_period.estimate).toBe(1);
    for (const selector of ['[data-figure="people_all_time"]', '[data-figure="now"]', '#all-time', '#your-site', '#tab-first-touch'])
      expect(await shown(viewer, selector), selector).toBe(false);
    expect(await viewer.innerText('#dashboard')).not.toMatch(/all time|Visitors now|People ever|Your site/);
  });

  test("keeps the link's token through every control: a period's click, a key and Refresh", async () => {
    const token = await makeLink({ site: 'blog.example' });
    answered.length = 0;
    viewer.on('response', (response) => answered.push(`${response.status()} ${new URL(response.url()).pathname}`));
    await openLink(token);
    await viewer.waitForSelector('#dashboard[data-state="ready"]');
    const ready = (days: string) =>
      viewer.waitForFunction(
        (want) =>
          document.querySelector('#dashboard')?.getAttribute('data-state') === 'ready' &&
          new URLSearchParams(document.querySelector('#dashboard')?.getAttribute('data-period') ?? '').get('days') === want,
        days,
      );
    await viewer.click('#period-chips label:has(input[value="7d"])');
    await ready('7');
    expect(new URL(viewer.url()).hash).toBe(`#share=${token}`);
    expect(new URL(viewer.url()).searchParams.get('period')).toBe('7d');
    await viewer.keyboard.press('a');
    await ready('all');
    expect(new URL(viewer.url()).hash).toBe(`#share=${token}`);
    await viewer.click('#refresh');
    await ready('all');
    await viewer.reload();
    await viewer.waitForSelector('#dashboard[data-state="ready"]');
    expect(await shown(viewer, '#sign-in')).toBe(false);
    expect(await viewer.isChecked('input[name="period"][value="all"]')).toBe(true);
    const reads = answered.filter((line) => line.includes('/api/shared/') || line.includes('/api/admin/'));
    expect(reads.length).toBeGreaterThanOrEqual(4);
    expect(reads.filter((line) => !line.startsWith('200 /api/shared/activity'))).toEqual([]);
    viewer.removeAllListeners('response');
  });

  test('asks for the password of a link that has one, and opens with it', async () => {
    const token = await makeLink({ site: 'docs.example', password: PASSWORD });
    await openLink(token);
    await viewer.waitForSelector('#share-form:not([hidden])');
    expect(await viewer.textContent('#share-message')).toBe('This link asks for its password.');
    expect(await shown(viewer, '#dashboard')).toBe(false);
    await viewer.fill('#share-password', 'not the password at all');
    await viewer.press('#share-password', 'Enter');
    await viewer.waitForFunction(() => document.querySelector('#share-message')?.textContent?.startsWith('That password'));
    expect(await shown(viewer, '#share-form')).toBe(true);
    await viewer.fill('#share-password', PASSWORD);
    await viewer.press('#share-password', 'Enter');
    await viewer.waitForSelector('#dashboard:not([hidden])');
    await viewer.waitForSelector('#dashboard[data-state="ready"]');
    expect(await figure(viewer, 'people')).toBe('2');
  });

  test("says in the owner's words why a revoked or unknown link opens nothing, and asks no password of it", async () => {
    const token = await makeLink({ site: 'blog.example', label: 'to revoke' });
    const ref = (await adminRead(t, '/api/admin/links')).links.find(
      (link: { ref: string; label: string }) => link.label === 'to revoke',
    ).ref;
    const revoked = await fetch(`${t.host.url}/api/admin/links/${ref}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${t.env.OPERATOR_KEY!}` },
    });
    expect(revoked.status).toBe(200);
    await openLink(token);
    await viewer.waitForSelector('#share:not([hidden])');
    expect(await viewer.textContent('#share-message')).toBe('Its owner has closed this link. Ask them for a new one.');
    expect(await shown(viewer, '#share-form')).toBe(false);
    await openLink('x'.repeat(32));
    await viewer.waitForSelector('#share:not([hidden])');
    expect(await viewer.textContent('#share-message')).toContain('This link opens nothing');
    expect(await viewer.textContent('#share-message')).not.toMatch(/x-share|token/);
    expect(await shown(viewer, '#share-form')).toBe(false);
    expect(await shown(viewer, '#dashboard')).toBe(false);
  });
});
