import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hitsMessageSchema } from '../../shared/core/message';
import { operatorCookieValue } from '../../shared/core/identity/tokens';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post, browserHeaders } from '../support/http';

const publicFile = (name: string) => readFileSync(join(__dirname, '..', '..', 'public', name), 'utf8');

describe('the pages through the local host', () => {
  let t: TestHost;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.host.url}${path}`, { headers });
  const queuedHits = async () => (await t.peek()).flatMap((text) => hitsMessageSchema.parse(JSON.parse(text)).hits);

  beforeAll(async () => {
    // One trusted hop: the visitor is the address the test names, not the loopback it connects from (always self).
    t = await startTestHost({
      queues: false,
      env: { TRUSTED_PROXY_HOPS: '1', ALLOWED_ORIGINS: 'https://site.example,https://shop.example' },
    });
    // A wrong key or mark is counted in the store, as in Azure, where the container always exists.
    await containerOf(t.env);
  });
  beforeEach(() => t.queue.clearMessages());
  afterAll(() => t.stop());

  it('serves the dashboard at /api/admin as HTML under a policy that allows only the app own files', async () => {
    const page = await get('/api/admin');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    // The file, with the dashboard's parts named at its version; each is then served, kept a year.
    const text = await page.text();
    const version = /\/api\/assets\/admin\.js\?v=([\w-]+)"/.exec(text)?.[1];
    expect(version).toMatch(/^[\w-]{12}$/);
    expect(text.replaceAll(`?v=${version}"`, '"')).toBe(publicFile('admin.html'));
    const part = await get(`/api/assets/admin-dom.js?v=${version}`);
    expect([part.status, part.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
  });

  it('serves the snippet and the widget gzipped to any origin, and nothing that is not on the whitelist', async () => {
    for (const name of ['headcount.js', 'headcount-pulse.js']) {
      const script = await get(`/api/assets/${name}`, { 'accept-encoding': 'gzip', origin: 'https://anywhere.example' });
      expect(script.status).toBe(200);
      expect(script.headers.get('content-encoding')).toBe('gzip');
      expect(script.headers.get('access-control-allow-origin')).toBe('*');
      expect(await script.text()).toBe(publicFile(name));
    }
    for (const name of ['admin.html', 'nothing.js', '..%2Fpackage.json', 'chart.js']) {
      expect((await get(`/api/assets/${name}`)).status, name).toBe(404);
    }
  });

  it('gives the operator mark and each allowed site its links only for the operator key, and sets the operator cookie', async () => {
    const refused = await get('/api/admin/mark', { authorization: 'Bearer wrong-key-0123456789' });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe('unauthorized');
    const mark = await get('/api/admin/mark', { authorization: `Bearer ${t.env.OPERATOR_KEY}` });
    expect(mark.status).toBe(200);
    expect(mark.headers.get('cache-control')).toBe('no-store');
    expect(mark.headers.get('set-cookie')).toMatch(/^headcount_operator=[0-9a-f]{64};.*HttpOnly/);
    const token = operatorCookieValue(t.env.HASH_KEY!);
    expect(await mark.json()).toEqual({
      token,
      links: ['https://site.example', 'https://shop.example'].map((site) => ({
        site,
        mark: `${site}/#headcount-operator=${token}`,
        unmark: `${site}/#headcount-operator=off`,
      })),
    });
  });

  it('takes a beacon carrying the mark as the site itself, one carrying anything else as a person, and refuses an oversized mark', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.7' };
    const send = (body: unknown) =>
      post(`${t.host.url}/api/beacon`, JSON.stringify(body), {
        ...browserHeaders(AGENTS.firefoxLinux),
        origin: 'https://site.example',
        'user-agent': AGENTS.firefoxLinux,
        'content-type': 'text/plain;charset=UTF-8',
        ...forwarded,
      });
    expect((await send({ path: '/', operator: operatorCookieValue(t.env.HASH_KEY!) })).status).toBe(202);
    expect((await send({ path: '/', operator: operatorCookieValue('another-key-0123456789') })).status).toBe(202);
    expect((await send({ path: '/' })).status).toBe(202);
    expect((await queuedHits()).map((hit) => [hit.self, hit.person === null])).toEqual([
      [true, true],
      [false, false],
      [false, false],
    ]);
    const tooLong = await send({ path: '/', operator: 'x'.repeat(257) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error.message).toBe('operator: must be at most 256 characters');
  });
});
