import { describe, expect, it } from 'vitest';
import { byDay } from '../../shared/read/activity/by-day';
import { funnelStepsSetting } from '../../shared/core/funnel';
import { funnelOf } from '../../shared/read/activity/funnel';
import { hoursOf } from '../../shared/read/activity/hours';
import { sourcesOf } from '../../shared/read/activity/sources';
import { countsOf, rollupsOf } from '../support/rollups';
import { daysEnding } from '../../shared/core/days';
import type { ActivityHour, VisitorDay } from '../../shared/core/store/activity';
import { oneZone } from '../../shared/core/sites/zones';
import { zoneOf } from '../../shared/core/zone';

const hex = (n: number) => n.toString(16).padStart(32, '0');

/** A visitor-day document as keep-hits keeps one; a person reading `/` once by default. */
function doc(token: number, day: string, part: Partial<VisitorDay> = {}): VisitorDay {
  const store = part.store ?? 'site';
  return {
    id: `visitor-day:${store}:${hex(token)}`,
    pk: day,
    kind: 'visitor-day',
    store,
    day,
    token: hex(token),
    network: '203.0.113.x',
    first_seen: `${day}T10:00:00.000Z`,
    last_seen: `${day}T10:05:00.000Z`,
    requests: 1,
    bots: 0,
    self: 0,
    paths: { '/': 1 },
    sources: {},
    page_loads: 1,
    visit: false,
    folded_to: 0,
    ...part,
  };
}

const days = daysEnding('2026-10-23', 3);

describe('by_day: visitor-days by the one kind rule', () => {
  it('splits each day into people, scanners and self that add up to the total, with every day present', () => {
    const rows = byDay(
      rollupsOf([
        doc(1, '2026-10-21'),
        doc(2, '2026-10-21', { requests: 3, bots: 3 }),
        doc(3, '2026-10-21', { requests: 3, bots: 2 }),
        doc(4, '2026-10-23', { requests: 2, self: 1 }),
        doc(5, '2026-10-23', { requests: 2, bots: 2, self: 2 }),
      ]),
      days,
    );
    expect(rows).toEqual([
      // Page loads are people's: the two people's one each on the 21st, none by the scanner or the site's own reads.
      {
        day: '2026-10-21',
        people: 2,
        scanners: 1,
        self: 0,
        total: 3,
        left_out: { agent: 0, path: 0, network: 0, signals: 0 },
        page_loads: 2,
        // Rollups read without the day's distinct people say nothing of new and returning.
        people_new: null,
        returning: null,
      },
      {
        day: '2026-10-22',
        people: 0,
        scanners: 0,
        self: 0,
        total: 0,
        left_out: { agent: 0, path: 0, network: 0, signals: 0 },
        page_loads: 0,
        people_new: 0,
        returning: 0,
      },
      {
        day: '2026-10-23',
        people: 0,
        scanners: 0,
        self: 2,
        total: 2,
        left_out: { agent: 0, path: 0, network: 0, signals: 0 },
        page_loads: 0,
        people_new: null,
        returning: null,
      },
    ]);
    for (const row of rows) expect(row.people + row.scanners + row.self).toBe(row.total);
  });

  it('counts a token seen on two stores the same day once, as the stronger of the two', () => {
    const rows = byDay(
      rollupsOf([
        doc(1, '2026-10-23', { store: 'cosmos', requests: 4, bots: 4 }),
        doc(1, '2026-10-23', { store: 'sql', requests: 1, bots: 0 }),
        doc(2, '2026-10-23', { store: 'cosmos', requests: 1, bots: 1 }),
        doc(2, '2026-10-23', { store: 'sql', requests: 1, bots: 1 }),
        doc(3, '2026-10-23', { store: 'cosmos' }),
        doc(3, '2026-10-23', { store: 'sql', self: 1 }),
      ]),
      days,
    );
    expect(rows.at(-1)).toEqual({
      day: '2026-10-23',
      people: 1,
      scanners: 1,
      self: 1,
      total: 3,
      left_out: { agent: 0, path: 0, network: 0, signals: 0 },
      // The person's page loads on both stores.
      page_loads: 2,
      people_new: null,
      returning: null,
    });
  });

  it('counts each scanner visitor-day once under the reason most of its bot requests had across stores, ties to the surer', () => {
    const rows = byDay(
      rollupsOf([
        doc(1, '2026-10-23', { requests: 3, bots: 3, bots_by: { agent: 3 } }),
        doc(2, '2026-10-23', { store: 'cosmos', requests: 2, bots: 2, bots_by: { network: 2 } }),
        doc(2, '2026-10-23', { store: 'sql', requests: 2, bots: 2, bots_by: { path: 1, network: 1 } }),
        doc(3, '2026-10-23', { requests: 2, bots: 2, bots_by: { path: 1, signals: 1 } }),
        doc(4, '2026-10-23', { requests: 1, bots: 1, bots_by: { signals: 1 } }),
        doc(5, '2026-10-23', { requests: 2, bots: 1, bots_by: { network: 1 } }),
        doc(6, '2026-10-23', { requests: 1, bots: 1 }),
      ]),
      days,
    );
    // Token 5 is a person (one request of two was not a bot); token 6 was kept before reasons: a scanner under none.
    expect(rows.at(-1)).toEqual({
      day: '2026-10-23',
      people: 1,
      scanners: 5,
      self: 0,
      total: 6,
      left_out: { agent: 1, path: 1, network: 1, signals: 1 },
      page_loads: 1,
      people_new: null,
      returning: null,
    });
  });

  it('counts the same token on two days as two visitor-days (a token means nothing across days)', () => {
    const rows = byDay(rollupsOf([doc(1, '2026-10-22'), doc(1, '2026-10-23')]), days);
    expect(rows.map((row) => row.people)).toEqual([0, 1, 1]);
  });

  it('counts every loopback row of a day as one machine, as the visits by people do', () => {
    const rows = byDay(
      rollupsOf([doc(1, '2026-10-23', { network: '127.0.0.x', self: 1 }), doc(2, '2026-10-23', { network: '0:0:0:x', self: 1 })]),
      days,
    );
    expect(rows.at(-1)).toMatchObject({ self: 1, total: 1 });
  });
});

describe('sources: people page loads by referrer group', () => {
  it('groups hosts by the table, names the other hosts once, and counts page loads past the hosts as typed', () => {
    const sources = sourcesOf(
      countsOf([
        doc(1, '2026-10-23', { sources: { 'www.linkedin.com': 1, 'lnkd.in': 1 }, page_loads: 3 }),
        doc(2, '2026-10-23', { store: 'cosmos', sources: { 'github.com': 2 }, page_loads: 2 }),
        doc(2, '2026-10-23', { store: 'sql', sources: { 'www.google.co.uk': 1, 'www.blog.example': 1 }, page_loads: 2 }),
        doc(3, '2026-10-23', { sources: { 'blog.example': 2, 'm.news.example': 1 }, page_loads: 4 }),
        // Not readers: a crawler's and the site's own page loads are left out.
        doc(4, '2026-10-23', { requests: 2, bots: 2, sources: { 'www.bing.com': 2 }, page_loads: 2 }),
        doc(5, '2026-10-23', { self: 1, page_loads: 1 }),
      ]),
    );
    expect(sources).toEqual({
      linkedin: 2,
      github: 2,
      search: 1,
      other: 4,
      typed: 2,
      other_hosts: [
        { host: 'blog.example', page_loads: 3 },
        { host: 'news.example', page_loads: 1 },
      ],
    });
  });
});

describe('path: the funnel in visitor-days', () => {
  const steps = funnelStepsSetting.parse(undefined);

  it('counts, for each step, the people visitor-days that reached any of its paths on any store', () => {
    const path = funnelOf(
      countsOf(
        [
          doc(1, '2026-10-23', { paths: { '/': 2, '/about': 1, '/resume.pdf': 1 } }),
          doc(2, '2026-10-23', { store: 'cosmos', paths: { '/': 1 } }),
          doc(2, '2026-10-23', { store: 'sql', paths: { '/about/': 1 } }),
          doc(3, '2026-10-23', { paths: { '/resume': 1 } }),
          doc(4, '2026-10-23', { paths: { '/': 1, '/resume': 1 }, requests: 2, bots: 2 }),
          doc(5, '2026-10-23', { paths: { '/': 1 }, self: 1 }),
          doc(6, '2026-10-23', { paths: { '/projects': 1 } }),
        ],
        steps,
      ),
      steps,
    );
    expect(path).toEqual([
      { step: 'landing', paths: ['/'], visitor_days: 2 },
      { step: 'about', paths: ['/about', '/about/'], visitor_days: 2 },
      { step: 'resume', paths: ['/resume', '/resume/', '/resume.pdf'], visitor_days: 2 },
    ]);
  });

  it('reads FUNNEL_STEPS as named lists of paths, and refuses a malformed one naming the problem', () => {
    expect(funnelStepsSetting.parse('landing=/|inventory=/trees,/trees/|cv=/cv.pdf')).toEqual([
      { name: 'landing', paths: ['/'] },
      { name: 'inventory', paths: ['/trees', '/trees/'] },
      { name: 'cv', paths: ['/cv.pdf'] },
    ]);
    const problems = (value: string) => funnelStepsSetting.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
    expect(problems('landing=/|landing=/home')).toEqual(['step landing is named twice']);
    expect(problems('landing=home')).toEqual(['step landing: "home" must be a path starting with / with no query, or event:<name>']);
    expect(problems('/about')[0]).toContain('must be name=/path');
    expect(problems('')).toEqual(['must name from 1 to 12 steps, like landing=/|about=/about']);
  });
});

describe('hours: requests per store per local clock hour for the last 48 hours', () => {
  const hour = (store: string, at: string, requests: number, paths: Record<string, number>, day = at.slice(0, 10)): ActivityHour => ({
    id: `hour:${store}:${at.slice(11, 13)}`,
    pk: day,
    kind: 'activity-hour',
    store,
    day,
    hour: at,
    requests,
    bots: 1,
    self: 0,
    paths,
    folded_to: 0,
  });

  it('gives every hour for every store seen, zeros where a store served nothing, and the top five paths', () => {
    const now = new Date('2026-10-23T10:30:00Z');
    const rows = hoursOf(
      [
        hour('sql', '2026-10-21T10:00:00.000Z', 9, { '/': 9 }), // 48 hours back: past the window
        hour('sql', '2026-10-21T11:00:00.000Z', 2, { '/': 2 }),
        hour('cosmos', '2026-10-23T10:00:00.000Z', 12, { '/': 1, '/a': 2, '/b': 3, '/c': 4, '/d': 1, '/e': 1 }),
      ],
      now,
      oneZone(zoneOf('UTC')),
    );
    expect(rows).toHaveLength(96);
    expect(rows[0]).toEqual({ store: 'cosmos', hour: '2026-10-21T11:00:00+00:00', requests: 0, bots: 0, self: 0, top_paths: [] });
    expect(rows[1]).toEqual({
      store: 'sql',
      hour: '2026-10-21T11:00:00+00:00',
      requests: 2,
      bots: 1,
      self: 0,
      top_paths: [{ path: '/', requests: 2 }],
    });
    expect(rows.at(-2)).toEqual({
      store: 'cosmos',
      hour: '2026-10-23T10:00:00+00:00',
      requests: 12,
      bots: 1,
      self: 0,
      top_paths: [
        { path: '/c', requests: 4 },
        { path: '/b', requests: 3 },
        { path: '/a', requests: 2 },
        { path: '/', requests: 1 },
        { path: '/d', requests: 1 },
      ],
    });
    expect(rows.reduce((sum, row) => sum + row.requests, 0)).toBe(14);
  });

  it("are the site's clock hours: Kolkata's begin at :30 UTC, and New York's 1 November repeats 01:00", () => {
    const kolkata = hoursOf(
      [hour('site', '2026-10-23T04:30:00.000Z', 3, {})],
      new Date('2026-10-23T10:40:00Z'),
      oneZone(zoneOf('Asia/Kolkata')),
    );
    expect(kolkata.at(-1)!.hour).toBe('2026-10-23T16:00:00+05:30');
    expect(kolkata.filter((row) => row.requests > 0).map((row) => row.hour)).toEqual(['2026-10-23T10:00:00+05:30']);
    const york = hoursOf(
      [hour('site', '2026-11-01T05:00:00.000Z', 1, {}, '2026-11-01'), hour('site', '2026-11-01T06:00:00.000Z', 2, {}, '2026-11-01')],
      new Date('2026-11-01T12:10:00Z'),
      oneZone(zoneOf('America/New_York')),
    );
    expect(york).toHaveLength(48);
    expect(york.filter((row) => row.requests > 0).map((row) => [row.hour, row.requests])).toEqual([
      ['2026-11-01T01:00:00-04:00', 1],
      ['2026-11-01T01:00:00-05:00', 2],
    ]);
    expect(york.at(-1)!.hour).toBe('2026-11-01T07:00:00-05:00');
  });
});
