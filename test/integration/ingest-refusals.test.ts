import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post, browserHeaders } from '../support/http';

const now = new Date('2026-10-23T10:00:00Z');
const good = { address: '203.0.113.7', user_agent: AGENTS.chromeWindows, path: '/' };

describe('bad input is refused whole, with the documented status, an error naming the field, and nothing enqueued', () => {
  let t: TestHost;
  const send = (path: string, body: unknown, headers: Record<string, string>) => post(`${t.host.url}${path}`, body, headers);
  const key = () => ({ 'x-ingest-key': t.env.INGEST_KEY! });
  const browser = { ...browserHeaders(AGENTS.firefoxLinux), origin: 'https://site.example', 'user-agent': AGENTS.firefoxLinux };

  beforeAll(async () => {
    t = await startTestHost({ queues: false, overrides: { clock: fixedClock(now) } });
    // A wrong key is counted in the store, as in Azure, where the container always exists.
    await containerOf(t.env);
  });
  afterAll(() => t.stop());

  const cases: {
    name: string;
    path: string;
    body: () => unknown;
    headers: () => Record<string, string>;
    status: number;
    code: string;
    field: string;
  }[] = [
    {
      name: 'malformed JSON',
      path: '/api/hits',
      body: () => '{"address": "203.0.113.7",',
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: '(body)',
    },
    {
      name: 'a wrong type',
      path: '/api/hits',
      body: () => ({ ...good, page_load: 'yes' }),
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: 'page_load',
    },
    {
      name: 'a wrong type in a batch',
      path: '/api/hits',
      body: () => ({ hits: [good, { ...good, path: 42 }] }),
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: 'hits.1.path',
    },
    {
      name: 'a missing path',
      path: '/api/hits',
      body: () => ({ address: '203.0.113.7', user_agent: AGENTS.chromeWindows }),
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: 'path',
    },
    {
      name: 'an address that is not one',
      path: '/api/hits',
      body: () => ({ ...good, address: 'not-an-ip' }),
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: 'address',
    },
    {
      name: 'an unknown field',
      path: '/api/hits',
      body: () => ({ ...good, cookie: 'x' }),
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: 'cookie',
    },
    {
      name: 'too many hits',
      path: '/api/hits',
      body: () => ({ hits: Array.from({ length: 501 }, () => good) }),
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: 'hits',
    },
    {
      name: 'an oversize body',
      path: '/api/hits',
      body: () => ({ hits: [{ ...good, user_agent: 'x'.repeat(600 * 1024) }] }),
      headers: key,
      status: 413,
      code: 'payload_too_large',
      field: 'bytes',
    },
    {
      name: '`at` too old',
      path: '/api/hits',
      body: () => ({ hits: [good, { ...good, at: '2026-10-15T09:59:59Z' }] }),
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: 'hits.1.at',
    },
    {
      name: '`at` in the future',
      path: '/api/hits',
      body: () => ({ ...good, at: '2026-10-23T10:05:01Z' }),
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: 'at',
    },
    {
      name: '`at` that is not a date',
      path: '/api/hits',
      body: () => ({ ...good, at: 'yesterday' }),
      headers: key,
      status: 400,
      code: 'invalid_request',
      field: 'at',
    },
    {
      name: 'a missing key',
      path: '/api/hits',
      body: () => good,
      headers: () => ({}),
      status: 401,
      code: 'unauthorized',
      field: 'x-ingest-key',
    },
    {
      name: 'a wrong key',
      path: '/api/hits',
      body: () => good,
      headers: () => ({ 'x-ingest-key': 'wrong-key-0123456789' }),
      status: 401,
      code: 'unauthorized',
      field: 'x-ingest-key',
    },
    {
      name: 'a wrong content type',
      path: '/api/hits',
      body: () => 'address=203.0.113.7',
      headers: () => ({ ...key(), 'content-type': 'application/x-www-form-urlencoded' }),
      status: 415,
      code: 'unsupported_media_type',
      field: 'content-type',
    },
    {
      name: 'an address in a beacon body',
      path: '/api/beacon',
      body: () => ({ path: '/', address: '203.0.113.7' }),
      headers: () => browser,
      status: 400,
      code: 'invalid_request',
      field: 'address',
    },
    {
      name: 'an agent in a beacon body',
      path: '/api/beacon',
      body: () => ({ path: '/', user_agent: AGENTS.chromeWindows }),
      headers: () => browser,
      status: 400,
      code: 'invalid_request',
      field: 'user_agent',
    },
    {
      name: 'a beacon with no path',
      path: '/api/beacon',
      body: () => ({ referrer: 'https://github.com/' }),
      headers: () => browser,
      status: 400,
      code: 'invalid_request',
      field: 'path',
    },
    {
      name: 'a beacon from a disallowed origin',
      path: '/api/beacon',
      body: () => ({ path: '/' }),
      headers: () => ({ ...browser, origin: 'https://evil.example' }),
      status: 403,
      code: 'origin_not_allowed',
      field: 'origin',
    },
    {
      name: 'a beacon of the wrong content type',
      path: '/api/beacon',
      body: () => '<path>/</path>',
      headers: () => ({ ...browser, 'content-type': 'application/xml' }),
      status: 415,
      code: 'unsupported_media_type',
      field: 'content-type',
    },
    {
      name: 'an oversize beacon',
      path: '/api/beacon',
      body: () => ({ path: `/${'a'.repeat(5000)}` }),
      headers: () => browser,
      status: 413,
      code: 'payload_too_large',
      field: 'bytes',
    },
  ];

  it('a bare JSON array of hits: 400 saying the shape it takes (one hit object, or {"hits": [...]})', async () => {
    const answer = await send('/api/hits', [good, good], key());
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 'invalid_request', issues: [{ path: '(body)' }] });
    expect(answer.json.error.message).toBe('(body): is a JSON array: send one hit as an object, or many as {"hits": [...]}');
    expect(await t.peek()).toEqual([]);
  });

  it('a URL over 16 KB: 431 in the one error envelope, from the local host before any function runs', async () => {
    const response = await fetch(`${t.host.url}/api/pulse?${'q'.repeat(17 * 1024)}`);
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('request_too_large');
    expect(body.error.message).toMatch(/^the URL and headers are over 16 KB/);
    // The host goes on answering.
    expect((await fetch(`${t.host.url}/api/pulse`)).status).toBe(200);
  });

  for (const c of cases) {
    it(`${c.name}: ${c.status} naming ${c.field}`, async () => {
      const answer = await send(c.path, c.body(), c.headers());
      expect(answer.status).toBe(c.status);
      expect(answer.json.error.code).toBe(c.code);
      expect(answer.json.error.message).toContain(c.field);
      if (c.status === 400) expect(answer.json.error.issues.map((issue: { path: string }) => issue.path)).toContain(c.field);
      expect(await t.peek()).toEqual([]);
    });
  }
});
