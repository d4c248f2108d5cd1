import { describe, expect, it } from 'vitest';
import { campaignsOf, countriesOf, devicesOf } from '../../shared/read/activity/audience';
import { countsOf } from '../support/rollups';
import { csvCell, toCsv } from '../../shared/read/export/csv';
import { exportQuerySchema } from '../../shared/contract/queries';
import { exportRows } from '../../shared/read/export/rows';
import { withVisitorDay } from '../../shared/fold/add';
import { lastMinutes, nowOf } from '../../shared/read/now';
import type { VisitorDay } from '../../shared/core/store/activity';
import type { VisitorDayPart } from '../../shared/core/store/facts';

const part = (over: Partial<VisitorDayPart> = {}): VisitorDayPart => ({
  day: '2026-10-23',
  id: 'visitor-day:site:a',
  store: 'site',
  token: 'a',
  network: '203.0.113.x',
  first_seen: '2026-10-23T11:50:00.000Z',
  last_seen: '2026-10-23T11:50:00.000Z',
  requests: 1,
  bots: 0,
  self: 0,
  paths: { '/': 1 },
  sources: {},
  page_loads: 1,
  ...over,
});

describe('the audience on visitor-days', () => {
  it('a visitor-day folded before the audience fields reads as before, and gains them from a newer part', () => {
    const old = withVisitorDay(null, part(), 1);
    expect(old).not.toHaveProperty('country');
    expect(old).not.toHaveProperty('browsers');
    const newer = withVisitorDay(
      old,
      part({ country: 'DE', browsers: { chrome: 1 }, campaigns: { 'x||': 1 }, minute_paths: { '11:51/': 1 } }),
      2,
    );
    expect(newer).toMatchObject({ country: 'DE', browsers: { chrome: 1 }, campaigns: { 'x||': 1 }, requests: 2 });
    expect(newer).not.toHaveProperty('minute_paths');
    // The country it has stays: a daily token is one address.
    expect(withVisitorDay(newer, part({ country: 'FR' }), 3).country).toBe('DE');
  });

  it('counts people only, XX for a day without a country, and each browser a day used once', () => {
    const doc = (token: string, over: Partial<VisitorDay>): VisitorDay => ({
      ...withVisitorDay(null, part({ token, id: `visitor-day:site:${token}` }), 1),
      ...over,
    });
    const days = countsOf([
      doc('a', { country: 'DE', browsers: { chrome: 3, firefox: 1 }, campaigns: { 'news|email|': 2 } }),
      doc('b', {}),
      doc('c', { country: 'FR', bots: 1, browsers: { other: 1 }, campaigns: { 'spam||': 9 } }),
    ]);
    expect(countriesOf(days)).toEqual([
      { country: 'DE', visitor_days: 1 },
      { country: 'XX', visitor_days: 1 },
    ]);
    expect(devicesOf(days).browsers).toEqual([
      { name: 'chrome', visitor_days: 1 },
      { name: 'firefox', visitor_days: 1 },
    ]);
    expect(campaignsOf(days)).toEqual([{ source: 'news', medium: 'email', campaign: null, page_loads: 2 }]);
  });
});

describe('now', () => {
  it('counts distinct people tokens per minute of the last 30, leaves out older minutes, scanners and self, and reads old facts', () => {
    const now = new Date('2026-10-23T12:00:30Z');
    expect(lastMinutes(now)[0]).toBe('2026-10-23T11:31:00.000Z');
    const figures = nowOf(
      [
        part({ token: 'a', minute_paths: { '11:30/old': 1, '11:31/': 1 }, requests: 2 }),
        part({ token: 'a', minute_paths: { '11:31/about': 1 } }),
        part({ token: 'b' }), // kept before minutes were: at its last minute, 11:50
        part({ token: 'c', bots: 1, minute_paths: { '11:55/': 1 } }),
        part({ token: 'd', self: 1, minute_paths: { '11:56/': 1 } }),
      ],
      now,
    );
    expect(figures.people_last_30_minutes).toBe(2);
    expect(figures.by_minute.filter((m) => m.people > 0)).toEqual([
      { minute: '2026-10-23T11:31:00.000Z', people: 1 },
      { minute: '2026-10-23T11:50:00.000Z', people: 1 },
    ]);
    expect(figures.top_paths).toEqual([
      { path: '/', requests: 2 },
      { path: '/about', requests: 1 },
    ]);
  });

  it("reads a minute kept on the site's local day as the UTC instant it was, whichever date that is", () => {
    // 00:10Z on the 24th is the evening of the 23rd in New York, and the morning of the 24th in Auckland is the 23rd in UTC.
    const evening = part({ day: '2026-10-23', token: 'e', minute_paths: { '00:10/': 1 } });
    expect(nowOf([evening], new Date('2026-10-24T00:20:00Z')).people_last_30_minutes).toBe(1);
    const morning = part({ day: '2026-10-24', token: 'm', minute_paths: { '23:50/': 1 } });
    expect(nowOf([morning], new Date('2026-10-23T23:55:00Z')).by_minute.filter((m) => m.people > 0)).toEqual([
      { minute: '2026-10-23T23:50:00.000Z', people: 1 },
    ]);
  });
});

describe('now, on a local day that spans two UTC dates', () => {
  it("puts each minute on the UTC date of the part's requests, not on the local day's date", () => {
    // Paris, 00:30 on Monday 26 October: the local day began at 23:00 UTC on the 25th.
    const now = new Date('2026-10-25T23:31:00Z');
    const late = {
      day: '2026-10-26',
      first_seen: '2026-10-25T23:10:00.000Z',
      last_seen: '2026-10-26T00:00:00.000Z',
      minute_paths: { '23:10/': 1, '23:30/pricing': 1 },
    };
    const figures = nowOf([part({ ...late, token: 'a' }), part({ ...late, token: 'b', minute_paths: { '23:30/': 1 } })], now);
    expect(figures.people_last_30_minutes).toBe(2);
    expect(figures.by_minute.filter((m) => m.people > 0)).toEqual([
      { minute: '2026-10-25T23:10:00.000Z', people: 1 },
      { minute: '2026-10-25T23:30:00.000Z', people: 2 },
    ]);
  });
});

describe('the export', () => {
  it('guards cells a spreadsheet would read as a formula, and quotes commas and quotes', () => {
    expect(csvCell('+cmd')).toBe("'+cmd");
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(-3)).toBe('-3');
  });

  it('has a row for every day, zeros on a quiet one', () => {
    const rows = exportRows(['2026-10-22', '2026-10-23'], new Map(), { '2026-10-23': 2 }, {});
    expect(rows.map((r) => [r.day, r.people_new, r.visits, r.visitor_days.total])).toEqual([
      ['2026-10-22', 0, 0, 0],
      ['2026-10-23', 2, 0, 0],
    ]);
    // A quiet day has no visit to time: its time on site is empty.
    expect(toCsv(rows).split('\r\n')[1]).toBe('2026-10-22,0,0,0,0,0,0,0,0,0,0,0,,,,,,,');
  });

  it('takes 1 to 400 days, both included', () => {
    expect(exportQuerySchema.safeParse({ from: '2025-09-19', to: '2026-10-23' }).success).toBe(true);
    expect(exportQuerySchema.safeParse({ from: '2025-09-18', to: '2026-10-23' }).success).toBe(false);
    expect(exportQuerySchema.safeParse({ from: '2026-10-23', to: '2026-10-23', format: 'csv' }).success).toBe(true);
  });
});
