import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

// The configuration through the local host and the local Cosmos server: seeded from the settings, changed only with
// the version read, and its goals, segments and annotations taken by the reads and the fold.

const clock = fixedClock('2026-10-23T12:00:00.000Z');
const SITES = 'blog.example=https://blog.example';

describe('the configuration', () => {
  let t: TestHost;
  const logger = memoryLogger();
  const call = async (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const response = await fetch(`${t.host.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-operator-key': t.env.OPERATOR_KEY!, 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, json: await response.json(), etag: response.headers.get('etag') };
  };
  const put = (body: unknown, etag: string | null) =>
    call('/api/admin/config', { method: 'PUT', body, headers: etag === null ? {} : { 'if-match': etag } });
  const hit = (address: string, path: string, at: string) => ({ address, user_agent: AGENTS.firefoxLinux, path, page_load: true, at });

  beforeAll(async () => {
    t = await startTestHost({ env: { ALLOWED_ORIGINS: '', SITES, GOALS: 'signup=event:signup' }, overrides: { clock, logger } });
    // Three past days, before any goal on pricing pages exists.
    const hits = [
      hit('203.0.113.1', '/pricing/team', '2026-10-20T09:00:00Z'),
      hit('203.0.113.2', '/pricing/solo', '2026-10-20T09:00:00Z'),
      hit('203.0.113.3', '/about', '2026-10-20T09:00:00Z'),
      hit('203.0.113.1', '/pricing/team', '2026-10-21T09:00:00Z'),
      hit('203.0.113.4', '/', '2026-10-22T09:00:00Z'),
    ];
    expect((await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! })).status).toBe(202);
    await t.host.drain();
    clock.advance(60_000);
    await t.fold();
  });
  afterAll(() => t?.stop());

  it('is seeded from the settings and answered with its version as the ETag', async () => {
    const read = await call('/api/admin/config');
    expect(read.status).toBe(200);
    expect(read.etag).toMatch(/^".+"$/);
    expect(read.json).toEqual({
      sites: [{ name: 'blog.example', origins: ['https://blog.example'], time_zone: 'UTC' }],
      goals: [{ name: 'signup', event: 'signup', added: '2026-10-23' }],
      funnels: [],
      segments: [],
      annotations: [],
      email: [],
    });
  });

  it('refuses a change without If-Match, with a bad field named, or on a version another editor replaced', async () => {
    const first = await call('/api/admin/config');
    const { goals: _goals, ...rest } = first.json;
    expect((await put(rest, null)).status).toBe(428);
    const bad = await put({ ...rest, goals: [{ name: 'pricing', event: 'buy', pages: ['/pricing'] }] }, first.etag);
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^goals\.0\.event: /);
    const note = { day: '2026-10-21', note: 'Launch post' };
    // Two editors read the same version; the first to save wins and the second is told so.
    const saved = await put({ ...rest, goals: [], annotations: [note] }, first.etag);
    expect(saved.status).toBe(200);
    expect(saved.etag).not.toBe(first.etag);
    const second = await put({ ...rest, goals: [], segments: [{ name: 'Pricing', filters: ['page:/pricing/team'] }] }, first.etag);
    expect(second.status).toBe(412);
    expect(second.json.error.code).toBe('stale');
    expect((await call('/api/admin/config')).json.annotations).toEqual([note]);
  });

  it('answers an annotation with a period that holds its day, and only then', async () => {
    const read = await call('/api/admin/config');
    await put({ ...read.json, goals: [], annotations: [{ day: '2026-10-21', note: 'Launch post' }] }, read.etag);
    const week = await call('/api/admin/activity?days=7');
    expect(week.json.annotations).toEqual([{ day: '2026-10-21', note: 'Launch post' }]);
    const today = await call('/api/admin/activity?days=1');
    expect(today.json.annotations).toBeUndefined();
  });

  it('reads a segment as the filters it names', async () => {
    const read = await call('/api/admin/config');
    const segments = [{ name: 'Team plan', filters: ['page:/pricing/team'] }];
    expect((await put({ ...read.json, goals: [], segments }, read.etag)).status).toBe(200);
    const bySegment = await call(`/api/admin/activity?days=7&filter=${encodeURIComponent('segment:Team plan')}`);
    const byFilters = await call(`/api/admin/activity?days=7&filter=${encodeURIComponent('page:/pricing/team')}`);
    expect(bySegment.status).toBe(200);
    expect(bySegment.json.segments).toEqual(['Team plan']);
    expect(bySegment.json.filters).toEqual(byFilters.json.filters);
    expect(bySegment.json.by_day).toEqual(byFilters.json.by_day);
    expect(bySegment.json.headline).toEqual(byFilters.json.headline);
    expect(bySegment.json.headline.visits).toBe(2);
    const unknown = await call('/api/admin/activity?days=7&filter=segment:nope');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toMatch(/^filter: /);
    // The export takes it too.
    const range = 'from=2026-10-20&to=2026-10-23';
    const exported = await call(`/api/admin/export?${range}&filter=${encodeURIComponent('segment:Team plan')}`);
    expect(exported.status).toBe(200);
    expect(exported.json).toEqual((await call(`/api/admin/export?${range}&filter=${encodeURIComponent('page:/pricing/team')}`)).json);
    // A shared link scoped to the segment shows its figures alone.
    const link = await call('/api/admin/links', { method: 'POST', body: { filters: ['segment:Team plan'], days: '7' } });
    expect(link.status).toBe(201);
    const shared = await fetch(`${t.host.url}/api/shared/activity`, { headers: { 'x-share-token': link.json.token } });
    const card = await shared.json();
    expect(card.view.filters).toEqual(['segment:Team plan']);
    expect(card.by_day).toEqual(byFilters.json.by_day);
  });

  it('counts a goal added today over the past days', async () => {
    const read = await call('/api/admin/config');
    const goals = [{ name: 'pricing', pages: ['/pricing/*'] }];
    expect((await put({ ...read.json, goals }, read.etag)).status).toBe(200);
    clock.advance(60_000);
    await t.fold();
    const card = await call('/api/admin/activity?days=7');
    const pricing = card.json.goals.find((goal: { goal: string }) => goal.goal === 'pricing');
    // Its pages' most reached alone would say 2: two of the three visitor-days reached /pricing/team.
    expect(pricing.conversions).toBe(3);
    expect(pricing.holds_from).toBeUndefined();
    const month = await call('/api/admin/activity?from=2026-10-01&to=2026-10-23');
    expect(month.json.goals.find((goal: { goal: string }) => goal.goal === 'pricing').conversions).toBe(3);
  });

  it('counts a funnel added today over the past days: each step, its visits and drop-off', async () => {
    // Two more visits on the 22nd: one reads about then pricing, the other pricing then about.
    const hits = [
      hit('203.0.113.5', '/about', '2026-10-22T10:00:00Z'),
      hit('203.0.113.5', '/pricing/team', '2026-10-22T10:05:00Z'),
      hit('203.0.113.6', '/pricing/solo', '2026-10-22T11:00:00Z'),
      hit('203.0.113.6', '/about', '2026-10-22T11:05:00Z'),
    ];
    expect((await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! })).status).toBe(202);
    await t.host.drain();
    clock.advance(60_000);
    await t.fold();
    const read = await call('/api/admin/config');
    const steps = [
      { name: 'Pricing', pages: ['/pricing/*'] },
      { name: 'About', pages: ['/about'] },
    ];
    const saved = await put({ ...read.json, funnels: [{ name: 'pricing-about', steps }] }, read.etag);
    expect(saved.status).toBe(200);
    expect(saved.json.funnels[0]).toMatchObject({ name: 'pricing-about', added: '2026-10-23' });
    clock.advance(60_000);
    await t.fold();
    const card = await call('/api/admin/activity?days=7');
    // Pricing: two visits on the 20th, one on the 21st, two on the 22nd; of them, only the one of the 22nd that read
    // pricing first read about after it.
    expect(card.json.funnels).toEqual([
      {
        funnel: 'pricing-about',
        in_order: true,
        steps: [
          { name: 'Pricing', visits: 5, drop_off: 0 },
          { name: 'About', visits: 1, drop_off: 4 },
        ],
      },
    ]);
    // From now on it is counted as the days are folded, under a filter too (filter cells are not counted back).
    const today = [hit('203.0.113.7', '/pricing/team', '2026-10-23T12:00:00Z'), hit('203.0.113.7', '/about', '2026-10-23T12:01:00Z')];
    expect((await post(`${t.host.url}/api/hits`, { hits: today }, { 'x-ingest-key': t.env.INGEST_KEY! })).status).toBe(202);
    await t.host.drain();
    clock.advance(60_000);
    await t.fold();
    const filtered = await call(`/api/admin/activity?days=1&filter=${encodeURIComponent('page:/about')}`);
    expect(filtered.json.funnels[0].steps.map((step: { visits: number }) => step.visits)).toEqual([1, 1]);
  });
});
