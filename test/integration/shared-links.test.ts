import type { Container } from '@azure/cosmos';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOWDOWN } from '../../shared/core/guesses';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { operatorCall, siteHit, TWO_SITES, twoSitesFolded } from '../support/two-sites';

// Shared links through the local host and the local Cosmos server: the operator makes one for a site, it opens that
// site's card read-only and nothing outside its view, and a wrong, guessed, revoked or expired one is refused, the
// wrong ones slowed as wrong keys are.

const clock = fixedClock('2026-10-23T12:00:00.000Z');
const PASSWORD = 'correct horse battery';

describe('shared links', () => {
  let t: TestHost;
  let container: Container;
  const logger = memoryLogger();
  const tokens: string[] = [];
  const admin = operatorCall(() => t);
  const make = async (body: Record<string, unknown>): Promise<{ token: string; ref: string }> => {
    const made = await admin('/api/admin/links', { method: 'POST', body });
    expect(made.status).toBe(201);
    tokens.push(made.json.token);
    return { token: made.json.token, ref: made.json.link.ref };
  };
  const shared = async (path: string, token: string, from: string, password?: string) => {
    const headers: Record<string, string> = { 'x-share-token': token, 'x-forwarded-for': from };
    if (password !== undefined) headers['x-share-password'] = password;
    const response = await fetch(`${t.host.url}${path}`, { headers });
    return { status: response.status, json: await response.json(), retryAfter: response.headers.get('retry-after') };
  };

  beforeAll(async () => {
    const hits = [
      siteHit('blog.example', '203.0.113.1', '/'),
      siteHit('blog.example', '203.0.113.2', '/pricing'),
      siteHit('docs.example', '203.0.113.3', '/'),
    ];
    t = await twoSitesFolded(hits, { clock, logger });
    container = await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it("opens its site's card read-only, with its fixed filters and period", async () => {
    const { token } = await make({ site: 'blog.example', label: 'for the client', days: '7' });
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const card = await shared('/api/shared/activity?days=30&site=docs.example', token, '198.51.100.1');
    expect(card.status).toBe(200);
    expect(card.json.days).toBe(7);
    expect(card.json.by_day.at(-1).people).toBe(2);
    expect(card.json.view).toEqual({ site: 'blog.example', label: 'for the client', days: '7', filters: [] });
    const filtered = await make({ site: 'blog.example', filters: ['page:/pricing'] });
    const one = await shared('/api/shared/activity?days=1', filtered.token, '198.51.100.1');
    expect(one.json.by_day.at(-1).people).toBe(1);
    // The token opens no admin route.
    const asAdmin = await fetch(`${t.host.url}/api/admin/activity`, { headers: { 'x-share-token': token } });
    expect(asAdmin.status).toBe(401);
  });

  it('answers nothing outside its view: every figure under its filter, no last hours, no all-time figures, no counters', async () => {
    const { token } = await make({ site: 'blog.example', filters: ['page:/pricing'], days: '7' });
    // A filter the viewer adds narrows the view; the link's own cannot be taken off.
    const card = await shared('/api/shared/activity?days=30&filter=!page:/pricing', token, '198.51.100.6');
    expect(card.status).toBe(200);
    expect(card.json.filters).toEqual([
      { dimension: 'page', value: '/pricing', negated: false },
      { dimension: 'page', value: '/pricing', negated: true },
    ]);
    expect(card.json.headline.people).toBe(0);
    const plain = await shared('/api/shared/activity', token, '198.51.100.6');
    const operator = await admin('/api/admin/activity?days=7&site=blog.example&filter=page:/pricing');
    const { hours: _hours, cost: _cost, goals, ...inView } = operator.json;
    expect(plain.json).toEqual({
      ...inView,
      goals: goals.map(({ people_all_time: _ever, first_touch: _first, ...goal }: Record<string, unknown>) => goal),
      view: { site: 'blog.example', label: '', days: '7', filters: ['page:/pricing'] },
    });
    expect(plain.json.headline.people).toBe(1);
    for (const outside of ['hours', 'cost', 'people_all_time', 'first_touch', 'token', 'top_paths'])
      expect(JSON.stringify(plain.json)).not.toContain(`"${outside}"`);
    // The whole site's all-time count is no read of a link's.
    expect((await shared('/api/shared/people', token, '198.51.100.6')).status).toBe(404);
  });

  it('lists each link without its token, and refuses a revoked one with 401', async () => {
    const { token, ref } = await make({ site: 'docs.example' });
    const list = await admin('/api/admin/links');
    const row = list.json.links.find((link: { ref: string }) => link.ref === ref);
    expect(row).toMatchObject({ site: 'docs.example', password: false, revoked_at: null });
    expect(JSON.stringify(list.json)).not.toContain(token);
    expect((await shared('/api/shared/activity', token, '198.51.100.2')).status).toBe(200);
    expect((await admin(`/api/admin/links/${ref}`, { method: 'DELETE' })).status).toBe(200);
    const revoked = await shared('/api/shared/activity', token, '198.51.100.2');
    expect(revoked.status).toBe(401);
    expect(revoked.json.error.code).toBe('revoked');
  });

  it('refuses an expired link with 401', async () => {
    const { token } = await make({ site: 'blog.example', expires_at: '2026-10-23T14:00:00Z' });
    expect((await shared('/api/shared/activity', token, '198.51.100.3')).status).toBe(200);
    clock.advance(3 * 3_600_000);
    const expired = await shared('/api/shared/activity', token, '198.51.100.3');
    expect(expired.status).toBe(401);
    expect(expired.json.error.code).toBe('expired');
  });

  it('answers a right password with a pass that opens the link in its place, and only that link', async () => {
    const { token } = await make({ site: 'blog.example', password: PASSWORD });
    const other = await make({ site: 'blog.example', password: PASSWORD });
    const read = (link: string, headers: Record<string, string>) =>
      fetch(`${t.host.url}/api/shared/activity`, { headers: { 'x-share-token': link, 'x-forwarded-for': '198.51.100.9', ...headers } });
    const opened = await read(token, { 'x-share-password': PASSWORD });
    expect(opened.status).toBe(200);
    const pass = opened.headers.get('x-share-pass')!;
    expect(pass).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    const again = await read(token, { 'x-share-pass': pass });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-share-pass')).toBeNull();
    expect(((await (await read(other.token, { 'x-share-pass': pass })).json()) as { error: { code: string } }).error.code).toBe(
      'password_required',
    );
    clock.advance(12 * 3_600_000);
    expect(((await (await read(token, { 'x-share-pass': pass })).json()) as { error: { code: string } }).error.code).toBe(
      'password_required',
    );
  });

  it('asks for the password, refuses a wrong one and counts it against the address', async () => {
    const { token } = await make({ site: 'blog.example', password: PASSWORD });
    const none = await shared('/api/shared/activity', token, '198.51.100.4');
    expect(none.json.error.code).toBe('password_required');
    expect((await shared('/api/shared/activity', token, '198.51.100.4', PASSWORD)).status).toBe(200);
    for (let attempt = 1; attempt < SLOWDOWN.freeGuesses; attempt += 1) {
      const wrong = await shared('/api/shared/activity', token, '198.51.100.4', `wrong ${attempt}`);
      expect(wrong.status).toBe(401);
      expect(wrong.retryAfter).toBeNull();
      expect(wrong.json.error).toEqual({ code: 'unauthorized', message: 'The link or its password is wrong.' });
    }
    const slowed = await shared('/api/shared/activity', token, '198.51.100.4', 'wrong again');
    expect(slowed.status).toBe(401);
    expect(slowed.retryAfter).toBe('1');
    // While the address waits, even the right password is not checked.
    const waiting = await shared('/api/shared/activity', token, '198.51.100.4', PASSWORD);
    expect(waiting.status).toBe(429);
  });

  it('refuses a guessed token, and slows the address that guesses', async () => {
    for (let attempt = 1; attempt < SLOWDOWN.freeGuesses; attempt += 1) {
      const guessed = await shared('/api/shared/activity', randomBytes(24).toString('base64url'), '198.51.100.5');
      expect(guessed.status).toBe(401);
      expect(guessed.json.error).toEqual({ code: 'unauthorized', message: 'The link or its password is wrong.' });
    }
    const slowed = await shared('/api/shared/activity', 'not-even-a-token', '198.51.100.5');
    expect(slowed.status).toBe(401);
    expect(Number(slowed.retryAfter)).toBeGreaterThan(0);
    expect((await shared('/api/shared/activity', randomBytes(24).toString('base64url'), '198.51.100.5')).status).toBe(429);
  });

  it('keeps no token and no password in any document or log line', async () => {
    const { resources } = await container.items.readAll().fetchAll();
    const kept = JSON.stringify(resources);
    const logged = logger.lines.join('\n');
    expect(tokens.length).toBeGreaterThan(4);
    for (const token of tokens) {
      expect(kept).not.toContain(token);
      expect(logged).not.toContain(token);
    }
    expect(kept).not.toContain(PASSWORD);
    expect(kept).toContain('shared-link');
  });
});

describe('a shared link made without naming its site', () => {
  const made = async (t: TestHost) => {
    const response = await fetch(`${t.host.url}/api/admin/links`, {
      method: 'POST',
      headers: { 'x-operator-key': t.env.OPERATOR_KEY!, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'no site named' }),
    });
    return { status: response.status, json: await response.json() };
  };

  it('is for the only site a deployment without SITES counts, and a 400 naming site when SITES declares several', async () => {
    const one = await startTestHost({ queues: false, env: { ALLOWED_ORIGINS: 'https://only.example' } });
    await containerOf(one.env);
    try {
      const link = await made(one);
      expect(link.status).toBe(201);
      expect(link.json.link.site).toBe('only.example');
    } finally {
      await one.stop();
    }
    const several = await startTestHost({ queues: false, env: { ALLOWED_ORIGINS: '', SITES: TWO_SITES } });
    await containerOf(several.env);
    try {
      const refused = await made(several);
      expect(refused.status).toBe(400);
      expect(refused.json.error.issues).toEqual([{ path: 'site', message: expect.stringContaining('SITES declares several sites') }]);
    } finally {
      await several.stop();
    }
  });
});
