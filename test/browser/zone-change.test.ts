import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixedClock } from '../../shared/core/ports/clock';
import { TIME_ZONES_ID, type TimeZones } from '../../shared/core/store/time-zones';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';
import { closeContexts, pageTroubles, workerChromium } from './support';

// A site whose zone was set after some days were kept: the picker names the zone, and the chart marks the local day
// from which it holds, as an annotation is marked, its words on hover and on focus.

const NOW = '2026-10-23T20:00:00Z';
const FROM = '2026-10-21';

let t: TestHost;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  t = await startTestHost({ env: { ALLOWED_ORIGINS: '', TIME_ZONE: 'Europe/Paris' }, overrides: { clock: fixedClock(NOW) } });
  const container = await containerOf(t.env);
  // The zone as the store saw it first: set on the 20th, after UTC days were kept, so it holds from the 21st.
  const zones: TimeZones = {
    id: TIME_ZONES_ID,
    pk: VISITORS_PK,
    kind: 'time-zones',
    spans: [{ zone: 'Europe/Paris', from: FROM }],
    seen_at: ['2026-10-20T12:00:00.000Z'],
  };
  await container.items.create(zones);
  const hits = ['2026-10-19T10:00:00Z', '2026-10-22T10:00:00Z', '2026-10-23T10:00:00Z', '2026-10-23T19:50:00Z'].map((at, i) => ({
    at,
    address: `203.0.113.${i + 1}`,
    user_agent: AGENTS.firefoxLinux,
    path: '/',
    page_load: true,
  }));
  expect((await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! })).status).toBe(202);
  await t.host.drain();
  await t.fold();
  browser = await workerChromium();
  page = await (await browser.newContext()).newPage();
});

afterAll(async () => {
  await closeContexts(browser);
  await t?.stop();
});

describe('a zone set after days were kept', () => {
  test('names the zone by the picker and marks the day it holds from on the chart', async () => {
    const troubles = pageTroubles(page);
    await page.goto(`${t.host.url}/api/admin?period=7d`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#key', t.env.OPERATOR_KEY!);
    await page.press('#key', 'Enter');
    await page.waitForSelector('#dashboard[data-state="ready"]');
    expect(await page.textContent('#period-message')).toMatch(/Europe\/Paris days; Europe\/Paris from .*kept before in UTC/);
    const marker = page.locator(`#annotations li[data-day="${FROM}"] button`);
    await marker.focus();
    expect(await marker.locator('.annotation-note').textContent()).toMatch(
      /Europe\/Paris days from here; the days before were kept in another zone/,
    );
    expect(await marker.locator('.annotation-note').isVisible()).toBe(true);
    expect(troubles).toEqual([]);
  });

  test("tells the last 30 minutes and the last 48 hours by the site's clock", async () => {
    const troubles = pageTroubles(page);
    const table = (chart: string) =>
      page.$$eval(`[data-chart="${chart}"] .alt table tr`, (rows) =>
        rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')),
      );
    // 20:00Z is 22:00 in Paris.
    const minutes = await table('now-minutes');
    expect(minutes[0]).toEqual(['Minute (Europe/Paris)', 'Visitors']);
    expect(minutes.at(-1)![0]).toBe('22:00');
    expect(minutes.filter((row) => row[1] === '1')).toEqual([['21:50', '1']]);
    await page.click('#tab-now-hours');
    const hours = await table('hours');
    expect(hours[0]![0]).toBe('Hour (Europe/Paris)');
    expect(hours.at(-1)![0]).toBe('2026-10-23 22:00');
    // The hits at 10:00Z and 19:50Z, noon and 21:50 in Paris.
    expect(hours.filter((row) => row[1] === '1').map((row) => row[0])).toEqual([
      '2026-10-22 12:00',
      '2026-10-23 12:00',
      '2026-10-23 21:00',
    ]);
    expect(troubles).toEqual([]);
  });
});
