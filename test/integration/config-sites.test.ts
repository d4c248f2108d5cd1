import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, browserHeaders, post } from '../support/http';

// Sites edited in Settings, through the local host, Azurite and the local Cosmos server: a site added by PUT
// /api/admin/config is taken by the beacon and hits, kept, folded and read, and a site removed is refused, all with
// no restart.

const clock = fixedClock('2026-10-23T12:00:00.000Z');

describe('sites edited in the configuration', () => {
  let t: TestHost;
  const call = async (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const response = await fetch(`${t.host.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-operator-key': t.env.OPERATOR_KEY!, 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, json: await response.json(), etag: response.headers.get('etag') };
  };
  const editSites = async (sites: (kept: unknown[]) => unknown[]) => {
    const read = await call('/api/admin/config');
    return call('/api/admin/config', {
      method: 'PUT',
      body: { ...read.json, sites: sites(read.json.sites) },
      headers: { 'if-match': read.etag! },
    });
  };
  const beacon = (origin: string, address: string) =>
    post(`${t.host.url}/api/beacon`, JSON.stringify({ path: '/' }), {
      ...browserHeaders(AGENTS.firefoxLinux),
      origin,
      'content-type': 'application/json',
      'user-agent': AGENTS.firefoxLinux,
      'x-forwarded-for': address,
    });
  const hit = (site: string) =>
    post(
      `${t.host.url}/api/hits`,
      { address: '203.0.113.9', user_agent: AGENTS.chromeWindows, path: '/', page_load: true, site },
      { 'x-ingest-key': t.env.INGEST_KEY! },
    );

  beforeAll(async () => {
    t = await startTestHost({
      env: { ALLOWED_ORIGINS: '', SITES: 'blog.example=https://blog.example', TRUSTED_PROXY_HOPS: '1' },
      overrides: { clock },
    });
  });
  afterAll(() => t?.stop());

  it('takes a beacon from a site added in Settings, keeps and folds it as that site, and reads it', async () => {
    expect((await beacon('https://shop.example', '198.51.100.1')).status).toBe(403);
    const added = await editSites((sites) => [...sites, { name: 'shop.example', origins: ['https://shop.example'] }]);
    expect(added.status).toBe(200);
    expect((await beacon('https://shop.example', '198.51.100.1')).status).toBe(202);
    expect((await beacon('https://blog.example', '198.51.100.2')).status).toBe(202);
    expect((await hit('shop.example')).status).toBe(202);
    await t.host.drain();
    clock.advance(60_000);
    await t.fold();
    expect((await call('/api/admin/sites')).json).toEqual({ sites: ['blog.example', 'shop.example'], all: true });
    const shop = await call('/api/admin/activity?days=1&site=shop.example');
    expect(shop.status).toBe(200);
    expect(shop.json.headline.people).toBe(2);
    const blog = await call('/api/admin/activity?days=1&site=blog.example');
    expect(blog.json.headline.people).toBe(1);
    const all = await call('/api/admin/activity?days=1&site=*');
    expect(all.json.headline.people).toBe(3);
  });

  it('refuses a beacon and hits of a site removed in Settings, and keeps the first site', async () => {
    const removed = await editSites((sites) => sites.slice(0, 1));
    expect(removed.status).toBe(200);
    expect((await beacon('https://shop.example', '198.51.100.3')).status).toBe(403);
    const refused = await hit('shop.example');
    expect(refused.status).toBe(400);
    expect(refused.json.error.issues[0].path).toBe('site');
    expect((await beacon('https://blog.example', '198.51.100.3')).status).toBe(202);
    const moved = await editSites(() => [{ name: 'shop.example', origins: ['https://shop.example'] }]);
    expect(moved.status).toBe(400);
    expect(moved.json.error.issues[0].path).toBe('sites.0.name');
  });
});
