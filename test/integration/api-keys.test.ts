import type { Container } from '@azure/cosmos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOWDOWN } from '../../shared/core/guesses';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { ROUTES } from '../../shared/contract/routes';
import { containerOf } from '../support/cosmos';
import type { TestHost } from '../support/host';
import { AGENTS } from '../support/http';
import { operatorCall, siteHit, twoSitesFolded } from '../support/two-sites';

// Read-only API keys through the local host and the local Cosmos server: made once, kept as a keyed hash, scoped to a
// site, refused on every admin route, slowed when wrong, limited an hour, revoked at once; the Stats API answers what
// the period report says, and MCP asks the same questions over Streamable HTTP.

const clock = fixedClock('2026-10-23T12:00:00.000Z');

describe('API keys, the Stats API and MCP', () => {
  let t: TestHost;
  let container: Container;
  const logger = memoryLogger();
  const operator = operatorCall(() => t);
  const makeKey = async (body: Record<string, unknown>) => {
    const made = await operator('/api/admin/keys', { method: 'POST', body });
    expect(made.status).toBe(201);
    return { key: made.json.key as string, ref: made.json.api_key.ref as string };
  };
  const keyed = (key: string, path: string, body: unknown, from = '198.51.100.1', method = 'POST') =>
    fetch(`${t.host.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-forwarded-for': from,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, text: await response.text(), headers: response.headers }));
  const query = async (key: string, body: unknown, from?: string) => {
    const answer = await keyed(key, '/api/v2/query', body, from);
    return { status: answer.status, json: JSON.parse(answer.text) as Record<string, any> };
  };

  beforeAll(async () => {
    const hits = [
      siteHit('blog.example', '203.0.113.1', '/'),
      siteHit('blog.example', '203.0.113.1', '/pricing'),
      siteHit('blog.example', '203.0.113.2', '/pricing', AGENTS.chromeWindows),
      siteHit('blog.example', '203.0.113.3', '/about'),
      siteHit('docs.example', '203.0.113.4', '/'),
    ];
    t = await twoSitesFolded(hits, { clock, logger });
    container = await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('answers what the period report answers, for the whole period and by page', async () => {
    const { key } = await makeKey({ name: 'grafana', site: 'blog.example' });
    expect(key).toMatch(/^hck_[A-Za-z0-9_-]{32}$/);
    const report = await operator('/api/admin/activity?days=7&site=blog.example');
    const total = await query(key, { site_id: 'blog.example', metrics: ['visitors', 'visits', 'pageviews'], date_range: '7d' });
    expect(total.status).toBe(200);
    const { people, visits, page_loads } = report.json.headline;
    expect(total.json.results).toEqual([{ metrics: [people, visits, page_loads], dimensions: [] }]);
    expect(people).toBe(3);
    const pages = await query(key, { metrics: ['visitors', 'pageviews'], date_range: '7d', dimensions: ['event:page'] });
    const want = report.json.pages.map((page: { path: string; people: number; page_loads: number }) => [
      page.path,
      page.people,
      page.page_loads,
    ]);
    const got = pages.json.results.map((row: { dimensions: string[]; metrics: number[] }) => [row.dimensions[0], ...row.metrics]);
    expect(new Set(got.map(String))).toEqual(new Set(want.map(String)));
    expect(got[0]).toEqual(['/pricing', 2, 2]);
    const filtered = await query(key, { metrics: ['visitors'], date_range: '7d', filters: [['is', 'event:page', ['/pricing']]] });
    const asDashboard = await operator('/api/admin/activity?days=7&site=blog.example&filter=page:/pricing');
    expect(filtered.json.results[0].metrics[0]).toBe(asDashboard.json.headline.people);
    const not = await query(key, { metrics: ['visitors'], date_range: '7d', filters: [['is_not', 'event:page', ['/pricing']]] });
    expect(not.status).toBe(200);
    const contains = await query(key, {
      metrics: ['visitors'],
      date_range: '7d',
      dimensions: ['event:page'],
      filters: [['contains', 'event:page', ['pri']]],
    });
    expect(contains.json.results).toEqual([{ metrics: [2], dimensions: ['/pricing'] }]);
  });

  it('refuses what is outside the subset with a 400 naming the field and what is supported', async () => {
    const { key } = await makeKey({ name: 'script', site: 'blog.example' });
    const metric = await query(key, { metrics: ['revenue'], date_range: '7d' });
    expect(metric.status).toBe(400);
    expect(metric.json.error.message).toMatch(/^metrics\.0: "revenue" is not a supported metric; supported: visitors, visits/);
    const dimension = await query(key, { metrics: ['visitors'], date_range: '7d', dimensions: ['event:props:plan'] });
    expect(dimension.json.error.message).toMatch(/^dimensions\.0: .* supported: time:day/);
    const or = await query(key, { metrics: ['visitors'], date_range: '7d', filters: [['is', 'event:page', ['/a', '/b']]] });
    expect(or.json.error.message).toMatch(/^filters\.0.*one value/);
    const range = await query(key, { metrics: ['visitors'], date_range: 'quarter' });
    expect(range.json.error.message).toMatch(/^date_range/);
    const notHeld = await query(key, { metrics: ['visitors'], date_range: '7d', dimensions: ['visit:source'] });
    expect(notHeld.json.error.message).toMatch(/^metrics: visitors not answered by visit:source; it answers pageviews/);
  });

  it("answers time:hour from the dashboard's by_hour for one or two days, and refuses it for longer", async () => {
    const { key } = await makeKey({ name: 'hours', site: 'blog.example' });
    for (const days of [1, 2]) {
      const today = clock.now().toISOString().slice(0, 10);
      const from = new Date(Date.parse(today) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
      const report = await operator(`/api/admin/activity?from=${from}&to=${today}&site=blog.example`);
      const hours = await query(key, { metrics: ['events'], date_range: [from, today], dimensions: ['time:hour'] });
      expect(hours.status).toBe(200);
      const want = report.json.by_hour.map((hour: { hour: string; requests: number; bots: number; self: number }) => ({
        metrics: [hour.requests - hour.bots - hour.self],
        dimensions: [hour.hour],
      }));
      expect(want).toHaveLength(24 * days);
      expect(hours.json.results).toEqual(want);
    }
    const busiest = await query(key, { metrics: ['events'], date_range: 'day', dimensions: ['time:hour'], order_by: [['events', 'desc']] });
    expect(busiest.json.results[0]).toEqual({ metrics: [4], dimensions: ['2026-10-23T12:00:00+00:00'] });
    const week = await query(key, { metrics: ['events'], date_range: '7d', dimensions: ['time:hour'] });
    expect(week.status).toBe(400);
    expect(week.json.error.message).toMatch(/^dimensions: time:hour is answered for a period of one or two days/);
  });

  it("reads its own site only, and never reaches an admin route, the import or a shared link's read", async () => {
    const { key } = await makeKey({ name: 'blog only', site: 'blog.example' });
    const other = await query(key, { site_id: 'docs.example', metrics: ['visitors'], date_range: '7d' });
    expect(other.status).toBe(403);
    expect(other.json.error.message).toBe('site_id: this key reads blog.example only');
    const every = await makeKey({ name: 'all', site: '*' });
    expect((await query(every.key, { site_id: 'docs.example', metrics: ['visitors'], date_range: '7d' })).json.results[0].metrics).toEqual([
      1,
    ]);
    const closed = ROUTES.filter(
      (route) => route.path.startsWith('/api/admin/') || route.path.startsWith('/api/import') || route.path.startsWith('/api/shared/'),
    );
    expect(closed.length).toBeGreaterThan(10);
    let from = 10;
    for (const route of closed) {
      // Each from an address of its own, so the refusals below are the key's reach, not a guesser slowed.
      const path = route.path.replace(/\{[a-z]+\}/g, '0123456789abcdef');
      const answer = await keyed(
        key,
        path,
        route.method === 'get' || route.method === 'delete' ? undefined : {},
        `198.51.100.${(from += 1)}`,
        route.method.toUpperCase(),
      );
      // Signing out opens nothing, so it answers anyone; every other route refuses the key as a wrong operator key.
      if (route.path === '/api/admin/session') continue;
      expect(answer.status, `${route.method} ${route.path}`).toBe(401);
    }
  });

  it('slows wrong keys as wrong operator keys, revokes at once, and never keeps or logs a key', async () => {
    const { key, ref } = await makeKey({ name: 'to revoke', site: 'blog.example' });
    const wrong = key.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const statuses: number[] = [];
    for (let i = 0; i <= SLOWDOWN.freeGuesses; i += 1)
      statuses.push((await query(wrong, { metrics: ['visitors'], date_range: '7d' }, '198.51.100.200')).status);
    expect(statuses.slice(0, SLOWDOWN.freeGuesses)).toEqual(Array(SLOWDOWN.freeGuesses).fill(401));
    expect(statuses.at(-1)).toBe(429);
    // Even the right key waits its turn from that address.
    expect((await query(key, { metrics: ['visitors'], date_range: '7d' }, '198.51.100.200')).status).toBe(429);
    expect((await query(key, { metrics: ['visitors'], date_range: '7d' }, '198.51.100.201')).status).toBe(200);
    expect((await operator(`/api/admin/keys/${ref}`, { method: 'DELETE' })).json.api_key.revoked_at).not.toBeNull();
    const revoked = await query(key, { metrics: ['visitors'], date_range: '7d' }, '198.51.100.202');
    expect(revoked.status).toBe(401);
    expect(revoked.json.error.message).toBe('The API key is wrong or revoked.');
    const listed = await operator('/api/admin/keys');
    expect(JSON.stringify(listed.json)).not.toContain(key.slice(4));
    const { resources } = await container.items.readAll<Record<string, unknown>>().fetchAll();
    const stored = JSON.stringify(resources);
    expect(stored).toContain(ref);
    expect(stored).not.toContain(key.slice(4));
    expect(JSON.stringify(logger.lines)).not.toContain(key.slice(4));
  });

  it('limits a key to its requests an hour, counted in the store, then answers 429 until the hour turns', async () => {
    const { key, ref } = await makeKey({ name: 'busy', site: 'blog.example' });
    const hour = clock.now().toISOString().slice(0, 13);
    await container.items.upsert({ id: `api-key-use:${ref}:${hour}`, pk: 'api-keys', kind: 'api-key-use', uses: 600, ttl: 7200 });
    const over = await keyed(key, '/api/v2/query', { metrics: ['visitors'], date_range: '7d' }, '198.51.100.50');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    clock.advance(3_600_000);
    expect((await keyed(key, '/api/v2/query', { metrics: ['visitors'], date_range: '7d' }, '198.51.100.50')).status).toBe(200);
  });

  it('speaks MCP over Streamable HTTP: initialize, tools/list and tools/call', async () => {
    const { key } = await makeKey({ name: 'assistant', site: 'blog.example' });
    const rpc = async (method: string, params: unknown, id = 1) => {
      const answer = await keyed(key, '/api/mcp', { jsonrpc: '2.0', id, method, params }, '198.51.100.60');
      expect(answer.status, answer.text).toBe(200);
      return JSON.parse(answer.text) as { result: Record<string, any> };
    };
    const init = await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
    expect(init.result.serverInfo.name).toBe('headcount');
    expect(init.result.instructions).toMatch(/each person once/);
    const tools = await rpc('tools/list', {}, 2);
    expect(tools.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['breakdown', 'compare', 'summary', 'timeseries']);
    const called = await rpc('tools/call', { name: 'summary', arguments: { period: '7d' } }, 3);
    const summary = JSON.parse(called.result.content[0].text);
    const report = await operator('/api/admin/activity?days=7&site=blog.example');
    expect(summary.results[0].metrics[0]).toBe(report.json.headline.people);
    const pages = await rpc('tools/call', { name: 'breakdown', arguments: { period: '7d', dimension: 'event:page', limit: 1 } }, 4);
    expect(JSON.parse(pages.result.content[0].text).results).toEqual([{ metrics: [2], dimensions: ['/pricing'] }]);
    const unauthorised = await keyed('hck_' + 'x'.repeat(32), '/api/mcp', { jsonrpc: '2.0', id: 5, method: 'tools/list' }, '198.51.100.61');
    expect(unauthorised.status).toBe(401);
  });
});
