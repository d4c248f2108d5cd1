import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { fixedClock } from '../../shared/core/ports/clock';
import type { TestHost } from '../support/host';
import { seededHost } from './fixture';
import { closeContexts, pageTroubles, resetPage, workerChromium } from './support';

// The Admin session in a real browser: signing in exchanges the key for an HttpOnly cookie, a reload reads with it,
// Sign out ends it, and the key is never anywhere a script could read it. Wrong keys are slowed as the docs state:
// five at once, then a wait that the page says in words. The host's clock is the test's: no step waits on the wall clock.

let t: TestHost;
let browser: Browser;
let clock: ReturnType<typeof fixedClock>;
/** The file's context and its one page, which each test takes back to a known state (`resetPage`). */
let context: BrowserContext;
let tab: Page;

beforeAll(async () => {
  [t, browser] = await Promise.all([seededHost(), workerChromium()]);
  clock = t.root.clock as ReturnType<typeof fixedClock>;
  context = await browser.newContext();
  tab = await context.newPage();
});

afterAll(async () => {
  await closeContexts(browser);
  await t?.stop();
});

const KEY_MESSAGE = 'That key was not accepted. Check the operator key and try again.';

async function typeKey(page: Page, key: string): Promise<string> {
  await page.fill('#key', key);
  const [answer] = await Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === '/api/admin/session' && response.request().method() === 'POST'),
    page.press('#key', 'Enter'),
  ]);
  await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('#sign-in-button')!.disabled);
  return `${answer.status()} ${(await page.textContent('#sign-in-message')) ?? ''}`;
}

/** Everything of the page a script can read: both storages and document.cookie. */
const readable = (page: Page) =>
  page.evaluate(() => ({
    session: Object.entries(sessionStorage),
    local: Object.entries(localStorage),
    cookie: document.cookie,
  }));

async function keyNowhereReadable(page: Page, context: BrowserContext, key: string) {
  const seen = await readable(page);
  expect(seen.session).toEqual([]);
  expect(seen.local).toEqual([]);
  expect(seen.cookie).not.toContain(key);
  expect(seen.cookie).not.toContain('headcount_admin');
  for (const cookie of await context.cookies()) {
    expect(cookie.value, cookie.name).not.toContain(key);
    expect(cookie.httpOnly, cookie.name).toBe(true);
  }
}

describe('the Admin session in Chromium', () => {
  test('sign in, reload, read, sign out: the key is never kept in the browser', async () => {
    const page = await resetPage(tab);
    const troubles = pageTroubles(page);
    const key = t.env.OPERATOR_KEY!;
    const response = await page.goto(`${t.host.url}/api/admin`);
    // The page's own headers: HSTS, an opener policy, and no powerful feature (none Chromium does not know, either).
    expect(response!.headers()).toMatchObject({
      'strict-transport-security': 'max-age=63072000',
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': expect.stringContaining('camera=(), '),
    });
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#sign-in')).toBe(true);

    expect(await typeKey(page, key)).toBe('200 ');
    await page.waitForSelector('#dashboard[data-state="ready"]');
    expect(await page.inputValue('#key')).toBe('');
    const session = (await context.cookies()).find((cookie) => cookie.name === '__Host-headcount_admin')!;
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    // Eight hours unused, the default.
    expect(session.expires - Date.now() / 1000).toBeGreaterThan(7.9 * 3600);
    await keyNowhereReadable(page, context, key);

    // A reload reads at once, with the session: no key is asked for.
    const [read] = await Promise.all([
      page.waitForRequest((request) => new URL(request.url()).pathname === '/api/admin/visitors/people'),
      page.reload(),
    ]);
    expect(read.headers().authorization).toBeUndefined();
    await page.waitForSelector('#dashboard[data-state="ready"]');
    expect(await page.isVisible('#sign-in')).toBe(false);
    expect(await page.textContent('[data-figure="people_all_time"] .figure')).toBe('4');
    expect(await page.textContent('[data-figure="people_all_time"] .change')).toBe('since 18 Oct');
    await keyNowhereReadable(page, context, key);

    // Sign out: the cookie goes, the form comes back, and a reload stays signed out.
    await page.click('#sign-out');
    await page.waitForSelector('#sign-in:not([hidden])');
    expect(await page.textContent('#sign-in-message')).toBe('Signed out.');
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('__Host-headcount_admin');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#sign-in')).toBe(true);
    expect(await page.isVisible('#dashboard')).toBe(false);
    expect(troubles).toEqual([]);
  });

  test('wrong keys are slowed as stated: five at once, then a wait the page says, and the right key after it', async () => {
    const page = await resetPage(tab);
    await page.goto(`${t.host.url}/api/admin`);
    await page.waitForSelector('body[data-ready="true"]');
    for (let i = 1; i <= 4; i += 1) expect(await typeKey(page, `wrong-key-${i}`)).toBe(`401 ${KEY_MESSAGE}`);
    expect(await typeKey(page, 'wrong-key-5')).toBe(`401 ${KEY_MESSAGE} This address now waits 1 second before its next try.`);
    // Until the second has passed, nothing is checked, not even the right key.
    expect(await typeKey(page, t.env.OPERATOR_KEY!)).toBe(
      '429 Too many wrong keys from this address: the next try is checked in 1 second.',
    );
    clock.advance(1_000);
    expect(await typeKey(page, 'wrong-key-6')).toBe(`401 ${KEY_MESSAGE} This address now waits 2 seconds before its next try.`);
    expect(await typeKey(page, 'wrong-key-7')).toBe('429 Too many wrong keys from this address: the next try is checked in 2 seconds.');
    clock.advance(2_000);
    // The owner is in as soon as the wait is over.
    expect(await typeKey(page, t.env.OPERATOR_KEY!)).toBe('200 ');
    await page.waitForSelector('#dashboard[data-state="ready"]');
    expect(await page.isVisible('#sign-in')).toBe(false);
  });

  test('a session the key did not make is no session, and a session that ran out asks for the key again', async () => {
    const page = await resetPage(tab);
    // The wrong keys of the test before are forgotten after 15 quiet minutes; a right key forgets none of them.
    clock.advance(15 * 60_000);
    // A cookie of the session's name that the key did not make: the page stays signed out, and the app removes it.
    const url = new URL(t.host.url);
    await context.addCookies([
      {
        name: '__Host-headcount_admin',
        value: `v1.1.9999999999.${'A'.repeat(43)}`,
        domain: url.hostname,
        path: '/',
        secure: true,
        httpOnly: true,
        sameSite: 'Strict',
      },
    ]);
    await page.goto(`${t.host.url}/api/admin`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#sign-in')).toBe(true);
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('__Host-headcount_admin');
    expect(await typeKey(page, t.env.OPERATOR_KEY!)).toBe('200 ');
    await page.waitForSelector('#dashboard[data-state="ready"]');
    // Nine hours later (eight unused end it), a reload finds it ended, says so, and keeps nothing.
    clock.advance(9 * 3600_000);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#sign-in')).toBe(true);
    expect(await page.textContent('#sign-in-message')).toBe('The session has ended. Sign in again.');
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('__Host-headcount_admin');
  });
});
