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

describe('the site switcher', () => {
  test('reads all sites by default, and one site once picked, keeping it in the address', async () => {
    await operator.goto(`${t.host.url}/api/admin`);
    await operator.waitForSelector('body[data-ready="true"]');
    await operator.fill('#key', t.env.OPERATOR_KEY!);
    await operator.press('#key', 'Enter');
    await operator.waitForSelector('#dashboard[data-state="ready"]');
    await operator.waitForSelector('#sites:not([hidden])');
    const options = await operator.$$eval('#site-picker option', (nodes) => nodes.map((node) => node.textContent));
    expect(options).toEqual(['All sites', 'blog.example', 'docs.example', 'shop.example']);
    const all = await adminRead(t, '/api/admin/visitors/people?site=*');
    expect(all.people_all_time).toBe(4);
    expect(await figure(operator, 'people_all_time')).toBe('4');
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
    const opened = await fetch(`${t.host.url}/api/shared/people`, { headers: { 'x-share-token': token } });
    expect(((await opened.json()) as { people_all_time: number }).people_all_time).toBe(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await operator.locator('.link-row', { hasText: 'for the shop · revoked' }).waitFor();
    expect((await fetch(`${t.host.url}/api/shared/people`, { headers: { 'x-share-token': token } })).status).toBe(401);
  });
});

describe('the read-only view of a shared link', () => {
  test("shows the link's site's panels and nothing of the Admin's, reading only the shared routes", async () => {
    const token = await makeLink({ site: 'blog.example', label: 'for the client' });
    asked.length = 0;
    await viewer.goto(`${t.host.url}/api/admin#share=${token}`);
    await viewer.waitForSelector('body[data-ready="true"]');
    await viewer.waitForSelector('#dashboard[data-state="ready"]');
    expect(await viewer.getAttribute('body', 'data-shared')).toBe('true');
    expect(await viewer.textContent('#share-words')).toBe('Read-only: blog.example, for the client.');
    expect(await figure(viewer, 'people_all_time')).toBe('2');
    expect(await figure(viewer, 'people')).toBe('2');
    for (const selector of ['#sign-in', '#sign-out', '#export', '#day', '#subjects', '#now', '#links', '#sites'])
      expect(await shown(viewer, selector), selector).toBe(false);
    for (const selector of ['#pages', '#sources', '#countries']) expect(await shown(viewer, selector), selector).toBe(true);
    // The page itself is /api/admin and the widget's preview reads the public pulse; every other read is a shared
    // route's, and the token never travels in an address.
    const reads = asked.filter(
      (path) => path.startsWith('/api/') && !path.startsWith('/api/assets/') && !['/api/admin', '/api/pulse'].includes(path),
    );
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.filter((path) => !path.startsWith('/api/shared/'))).toEqual([]);
    expect(asked.some((path) => path.includes(token))).toBe(false);
    expect(pageTroubles(viewer)).toEqual([]);
  });

  test('asks for the password of a link that has one, and opens with it', async () => {
    const token = await makeLink({ site: 'docs.example', password: PASSWORD });
    await viewer.goto(`${t.host.url}/api/admin#share=${token}`);
    await viewer.reload();
    await viewer.waitForSelector('#share-form:not([hidden])');
    expect(await shown(viewer, '#dashboard')).toBe(false);
    // A wrong password is refused as a wrong link is, and the form stays to try again.
    await viewer.fill('#share-password', 'not the password');
    await viewer.press('#share-password', 'Enter');
    await viewer.waitForFunction(() => document.querySelector('#share-message')?.textContent?.includes('is wrong'));
    expect(await viewer.textContent('#share-message')).toBe('This link opens nothing: The link or its password is wrong.');
    expect(await shown(viewer, '#share-form')).toBe(true);
    await viewer.fill('#share-password', PASSWORD);
    await viewer.press('#share-password', 'Enter');
    await viewer.waitForSelector('#dashboard:not([hidden])');
    await viewer.waitForSelector('#dashboard[data-state="ready"]');
    expect(await figure(viewer, 'people_all_time')).toBe('2');
  });

  test('says a revoked or unknown link opens nothing', async () => {
    await viewer.goto(`${t.host.url}/api/admin#share=${'x'.repeat(32)}`);
    await viewer.reload();
    await viewer.waitForSelector('#share:not([hidden])');
    expect(await viewer.textContent('#share-message')).toContain('This link opens nothing');
    expect(await shown(viewer, '#dashboard')).toBe(false);
  });
});
