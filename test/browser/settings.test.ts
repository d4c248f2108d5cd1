import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';
import { adminRead } from './fixture';
import { outboxMails } from '../../adapters/files/outbox';
import { closeContexts, pageTroubles, workerChromium } from './support';

// The Settings view in headless Chromium: a goal, a segment and an annotation added from it and seen on the dashboard
// (the goal counted back over the days before it, the segment's figures its filters', the annotation a marker on the
// chart with its note on hover and focus), and two browsers editing at once, the second told the first changed it.

const NOW = '2026-10-23T20:00:00Z';
const clock = fixedClock(NOW);

let t: TestHost;
let browser: Browser;
let page: Page;
let troubles: string[];

const hit = (address: string, path: string, at: string) => ({ at, address, user_agent: AGENTS.firefoxLinux, path, page_load: true });

/** Four days; on the 22nd one visit reads about before pricing, another pricing before about. */
const hits = [
  hit('203.0.113.1', '/pricing/team', '2026-10-20T09:00:00Z'),
  hit('203.0.113.2', '/pricing/solo', '2026-10-20T09:00:00Z'),
  hit('203.0.113.3', '/about', '2026-10-21T09:00:00Z'),
  hit('203.0.113.1', '/pricing/team', '2026-10-22T09:00:00Z'),
  hit('203.0.113.5', '/about', '2026-10-22T10:00:00Z'),
  hit('203.0.113.5', '/pricing/team', '2026-10-22T10:05:00Z'),
  hit('203.0.113.6', '/pricing/solo', '2026-10-22T11:00:00Z'),
  hit('203.0.113.6', '/about', '2026-10-22T11:05:00Z'),
  hit('203.0.113.4', '/', '2026-10-23T19:00:00Z'),
];

/** The visits (an address's day) that reached each step, each first reached no earlier than the one before, counted from the hits. */
function recount(steps: RegExp[]): number[] {
  const visits = new Map<string, Array<{ path: string; at: string }>>();
  for (const one of hits) {
    const visit = `${one.address} ${one.at.slice(0, 10)}`;
    visits.set(visit, [...(visits.get(visit) ?? []), one]);
  }
  const reached = [...visits.values()].map((requests) => {
    let after = '';
    for (const [k, step] of steps.entries()) {
      const first = requests
        .filter((one) => step.test(one.path))
        .map((one) => one.at)
        .sort()[0];
      if (first === undefined || first < after) return k;
      after = first;
    }
    return steps.length;
  });
  return steps.map((_, k) => reached.filter((count) => count > k).length);
}

async function signedIn(into: Page, address = '/api/admin'): Promise<void> {
  await into.goto(`${t.host.url}${address}`);
  await into.waitForSelector('body[data-ready="true"]');
  if (await into.isVisible('#key')) {
    await into.fill('#key', t.env.OPERATOR_KEY!);
    await into.press('#key', 'Enter');
  }
  await into.waitForSelector('#dashboard[data-state="ready"]');
}

/** Fills a list's form in the Settings view and saves it. */
async function add(into: Page, list: string, fields: Record<string, string>): Promise<void> {
  for (const [field, value] of Object.entries(fields)) await into.fill(`#settings-${list}-${field}`, value);
  await into.click(`#settings-${list} form button[type="submit"]`);
}

const rowsOf = (into: Page, list: string) =>
  into.$$eval(`#settings-${list} li span:first-child`, (nodes) => nodes.map((n) => n.textContent));

beforeAll(async () => {
  t = await startTestHost({ env: { ALLOWED_ORIGINS: '', SITES: 'shop.example=https://shop.example' }, overrides: { clock } });
  await containerOf(t.env);
  expect((await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! })).status).toBe(202);
  await t.host.drain();
  await t.fold();
  browser = await workerChromium();
  page = await (await browser.newContext()).newPage();
  troubles = pageTroubles(page);
});

afterAll(async () => {
  await closeContexts(browser);
  await t?.stop();
});

describe('the Settings view', () => {
  test('adds a goal that the Goals panel shows, counted back over the days before it', async () => {
    await signedIn(page);
    await page.click('#settings-open');
    await add(page, 'goals', { name: 'pricing', pages: '/pricing/*' });
    await page.waitForSelector('#settings-message:text("Saved.")');
    expect(await rowsOf(page, 'goals')).toEqual(['pricing: pages /pricing/*']);
    clock.advance(60_000);
    await t.fold();
    await page.click('#refresh');
    await page.waitForSelector('#dashboard[data-state="ready"]');
    const card = await adminRead(t, '/api/admin/activity?days=30');
    expect(card.goals).toMatchObject([{ goal: 'pricing', conversions: 5 }]);
    await page.waitForSelector('#goals-table');
    const row = await page.$$eval('#goals-table tbody tr', (rows) =>
      rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim())),
    );
    expect(row[0]?.slice(0, 2)).toEqual(['pricing', '5']);
    expect(troubles).toEqual([]);
  });

  test("names a refused field in the owner's words, beside its form", async () => {
    await signedIn(page);
    await page.click('#settings-open');
    await add(page, 'annotations', { day: '23 October', note: 'Launch' });
    await page.waitForSelector('#settings-annotations-error:text("Day: must be a day as YYYY-MM-DD")');
    expect(await rowsOf(page, 'annotations')).toEqual([]);
  });

  test('saves the filters as a segment, which the filter bar then picks, its figures those of its filters', async () => {
    await signedIn(page, `/api/admin?filter=${encodeURIComponent('page:/pricing/team')}`);
    await page.click('#segment-save');
    await page.fill('#segment-name', 'Team plan');
    await page.click('#segment-button');
    await page.waitForSelector('#segment-form', { state: 'hidden' });
    await page.goto(`${t.host.url}/api/admin`);
    await page.waitForSelector('#dashboard[data-state="ready"]');
    await page.waitForSelector('#segment-pick option[value="Team plan"]', { state: 'attached' });
    await page.selectOption('#segment-pick', 'Team plan');
    await page.waitForSelector('#filter-list li[data-filter="page:/pricing/team"]');
    await page.waitForFunction(() => document.querySelector('#dashboard')?.getAttribute('data-period')?.includes('filter='));
    await page.waitForSelector('#dashboard[data-state="ready"]');
    const bySegment = await adminRead(t, `/api/admin/activity?days=30&filter=${encodeURIComponent('segment:Team plan')}`);
    expect(bySegment.headline.visits).toBe(3);
    expect(await page.textContent('[data-figure="visits"] .figure')).toBe(String(bySegment.headline.visits));
  });

  test("adds a funnel whose steps' visits the Funnels tab shows, equal to a recount of visits in and out of order", async () => {
    await signedIn(page);
    await page.click('#settings-open');
    await add(page, 'funnels', { name: 'pricing-about', steps: 'Pricing: /pricing/* > About: /about' });
    await page.waitForSelector('#settings-message:text("Saved.")');
    expect(await rowsOf(page, 'funnels')).toEqual(['pricing-about: Pricing (/pricing/*) → About (/about)']);
    clock.advance(60_000);
    await t.fold();
    await page.click('#refresh');
    await page.waitForSelector('#dashboard[data-state="ready"]');
    await page.click('#tab-funnels');
    await page.waitForSelector('#funnels-body figure[data-funnel="pricing-about"]');
    const shown = await page.$$eval('#funnels-body .funnel-step', (rows) => rows.map((row) => Number(row.getAttribute('data-visits'))));
    const truth = recount([/^\/pricing\//, /^\/about$/]);
    // Of the two visits of the 22nd that read both, only the one that read pricing first goes on.
    expect(truth).toEqual([5, 1]);
    expect(shown).toEqual(truth);
    expect(await page.textContent('#funnels-body .funnel-step[data-step="2"]')).toContain('4 did not go on');
    expect(await page.textContent('#funnels-body figcaption')).toContain('each step reached after the one before, within a visit.');
  });

  test('adds an annotation that the chart shows as a marker on its day, its note shown on hover and on focus', async () => {
    await signedIn(page);
    await page.click('#settings-open');
    await add(page, 'annotations', { day: '2026-10-21', note: 'Launch post' });
    await page.waitForSelector('#annotations li[data-day="2026-10-21"]');
    const mark = page.locator('#annotations li[data-day="2026-10-21"] button');
    const note = page.locator('#annotations li[data-day="2026-10-21"] .annotation-note');
    expect(await note.isVisible()).toBe(false);
    await mark.hover();
    expect(await note.isVisible()).toBe(true);
    expect(await note.textContent()).toContain('Launch post');
    await page.mouse.move(0, 0);
    await mark.focus();
    expect(await note.isVisible()).toBe(true);
  });

  test("sets a site's mail, whose recipients are each sent a link to confirm, and names a bad recipient", async () => {
    await signedIn(page);
    await page.click('#settings-open');
    await add(page, 'email', { site: 'shop.example', recipients: 'owner@example', reports: 'weekly' });
    await page.waitForSelector('#settings-email-error:text("Recipients: must be an email address")');
    await add(page, 'email', {
      recipients: 'owner@example.com, team@example.com',
      reports: 'weekly, monthly',
      spike_people: '40',
      drop_percent: '50',
    });
    await page.waitForSelector('#settings-message:text("Saved.")');
    expect(await rowsOf(page, 'email')).toEqual([
      'shop.example: weekly and monthly reports, a spike at 40 people in 30 minutes, a drop below 50% of the week before, to owner@example.com, team@example.com',
    ]);
    expect((await adminRead(t, '/api/admin/config')).email).toEqual([
      {
        site: 'shop.example',
        recipients: ['owner@example.com', 'team@example.com'],
        reports: ['weekly', 'monthly'],
        spike_people: 40,
        drop_percent: 50,
      },
    ]);
    await t.host.run('email');
    const sent = await outboxMails(t.env.EMAIL_OUTBOX!);
    expect(sent.map((mail) => [mail.to, mail.subject])).toEqual([
      ['owner@example.com', "Confirm headcount's mail for shop.example"],
      ['team@example.com', "Confirm headcount's mail for shop.example"],
    ]);
  });

  test('tells the second of two browsers editing at once that the first changed the settings, and loses nothing', async () => {
    const other = await (await browser.newContext()).newPage();
    await signedIn(page);
    await signedIn(other);
    await page.click('#settings-open');
    await other.click('#settings-open');
    await add(page, 'annotations', { day: '2026-10-22', note: 'Price change' });
    await page.waitForSelector('#settings-message:text("Saved.")');
    await add(other, 'goals', { name: 'signup', event: 'signup' });
    await other.waitForSelector('#settings-message:text("Someone changed the settings")');
    // The first's change is shown to the second, and the second's was not saved over it.
    expect(await rowsOf(other, 'annotations')).toContain('2026-10-22: Price change');
    const config = await adminRead(t, '/api/admin/config');
    expect(config.annotations.map((note: { note: string }) => note.note)).toContain('Price change');
    expect(config.goals.map((goal: { name: string }) => goal.name)).toEqual(['pricing']);
    await other.context().close();
  });
});
