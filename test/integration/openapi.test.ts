import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostRoute, type HttpRegistration } from '../../host/registry';
import { loadFunctions } from '../../local/host';
import { readHostJson } from '../../local/host-json';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { D0, D1, D2, D3, GOLDEN_ENV, GOLDEN_ROWS, GOLDEN_SUBJECTS, START } from '../support/golden-fixture';
import { postsOf, sendGolden } from '../support/golden-posts';
import { startTestHost, type TestHost } from '../support/host';
import { outboxMails } from '../../adapters/files/outbox';
import { recipientHash, unsubscribeToken } from '../../shared/read/email/tokens';
import { AGENTS } from '../support/http';
import { documentedOperations, exchangeValidator, OPENAPI_FILE, openApiDocument, type Exchange } from '../support/openapi';
import { openApiText } from '../../shared/contract/openapi';

// docs/openapi.json against the app: the document is what `npm run openapi` makes from shared/contract (the routes, the
// parsers the app reads each query and body with, and the answers' zod schemas), never edited by hand; it is valid
// OpenAPI 3.1; it describes exactly the HTTP functions registered (routes and methods, both ways), each in words; and
// every answer of a run of the golden fixture through the local host, with the reads and the refusals a user can meet,
// holds to it (status, content type, body schema, the request's body).

const doc = openApiDocument();
const clock = fixedClock(START);

// Answers the fixture cannot bring about without taking the store or the queue away (test/integration/ingest-queue-down
// and the subjects' store tests do that; nothing takes the store away from the export yet); each is the error envelope,
// as every other refusal here is.
const NOT_EXERCISED = [
  'POST /api/hits 503',
  'POST /api/beacon 503',
  'POST /api/event 503',
  'POST /api/import 503',
  'GET /api/admin/subjects 503',
  'GET /api/admin/subjects/{id} 503',
  'GET /api/admin/export 503',
];

describe('the OpenAPI document', () => {
  it('is what npm run openapi makes from shared/contract, byte for byte', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8') === openApiText(), 'docs/openapi.json differs: run npm run openapi').toBe(true);
  });

  it('says what every operation is for, and what every parameter and answer is', () => {
    const unsaid: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (!operation.summary?.trim()) unsaid.push(`${name}: summary`);
        if (!operation.description?.trim()) unsaid.push(`${name}: description`);
        for (const parameter of operation.parameters ?? [])
          if (!parameter.$ref && !parameter.description?.trim() && parameter.in !== 'path') unsaid.push(`${name}: ${parameter.name}`);
        for (const [status, answer] of Object.entries(operation.responses as Record<string, any>))
          if (!answer.$ref && !answer.description?.trim()) unsaid.push(`${name} ${status}`);
      }
    expect(unsaid).toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every route and method registered, and nothing else', async () => {
    const prefix = readHostJson().extensions.http.routePrefix;
    const registered = (await loadFunctions())
      .filter((r): r is HttpRegistration => r.kind === 'http')
      .flatMap((r) => r.methods.map((method) => `${method.toUpperCase()} /${prefix ? `${prefix}/` : ''}${hostRoute(r)}`));
    expect([...documentedOperations(doc)].sort()).toEqual([...registered].sort());
  });
});

describe('the answers of a fixture run, against the OpenAPI document', () => {
  let t: TestHost;
  const exchanges: Exchange[] = [];

  async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
    const response = await fetch(`${t.host.url}${path}`, { method, headers: init.headers, body: init.body });
    const body = await response.text();
    exchanges.push({
      method,
      url: `${t.host.url}${path}`,
      requestType: init.headers?.['content-type'],
      requestBody: init.body,
      status: response.status,
      headers: response.headers,
      body,
    });
    return {
      status: response.status,
      json: body && response.headers.get('content-type')?.includes('json') ? JSON.parse(body) : null,
      headers: response.headers,
    };
  }
  const poster = async (url: string, body: unknown, headers: Record<string, string> = {}) =>
    call('POST', new URL(url).pathname, {
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    t = await startTestHost({ env: GOLDEN_ENV, overrides: { clock } });
    await containerOf(t.env);
    const operator = { 'x-operator-key': t.env.OPERATOR_KEY! };
    const bearer = { authorization: `Bearer ${t.env.OPERATOR_KEY!}` };
    const json = { 'content-type': 'application/json' };
    const ingest = { ...json, 'x-ingest-key': t.env.INGEST_KEY! };
    const site = { origin: 'https://site.example' };

    for (const batch of postsOf(GOLDEN_ROWS.filter((row) => !row.late))) {
      expect((await sendGolden({ url: t.host.url, env: t.env }, clock, batch, poster)).status).toBe(202);
      await t.host.drain();
    }
    clock.advance(60_000);
    await t.fold();

    // The reads, as the pages make them.
    await call('GET', '/api/pulse', { headers: site });
    await call('GET', '/api/admin/visitors/people', { headers: operator });
    for (const days of ['', '?days=7', '?days=400']) await call('GET', `/api/admin/activity${days}`, { headers: bearer });
    for (const day of [D0, D1, D2, D3]) await call('GET', `/api/admin/activity/visitors?day=${day}`, { headers: operator });
    await call('GET', '/api/admin/subjects', { headers: operator });
    const first = await call('GET', '/api/admin/subjects?sort=subject&order=asc&limit=2', { headers: operator });
    expect(first.json.continuation).toEqual(expect.any(String));
    await call('GET', `/api/admin/subjects?sort=subject&order=asc&limit=2&continuation=${first.json.continuation}`, { headers: operator });
    for (const id of GOLDEN_SUBJECTS) await call('GET', `/api/admin/subjects/${id}?days=7`, { headers: operator });
    await call('GET', '/api/admin/mark', { headers: operator });
    const now = await call('GET', '/api/admin/now', { headers: operator });
    expect(now.json.top_paths.length).toBeGreaterThan(0);
    await call('GET', '/api/admin/now?t=1', { headers: bearer });
    const retention = await call('GET', '/api/admin/retention?months=2', { headers: operator });
    expect(retention.json.cohorts).toHaveLength(2);
    for (const format of ['', '&format=json', '&format=csv'])
      await call('GET', `/api/admin/export?from=${D0}&to=${D3}${format}`, { headers: operator });
    const page = await call('GET', '/api/admin', { headers: { 'accept-encoding': 'gzip' } });
    await call('GET', '/api/admin', { headers: { 'if-none-match': page.headers.get('etag')! } });
    for (const name of ['headcount.js', 'headcount-pulse.js', 'admin.js', 'admin.css', 'chart.umd.min.js'])
      await call('GET', `/api/assets/${name}`);
    const script = await call('GET', '/api/assets/headcount.js');
    await call('GET', '/api/assets/headcount.js', { headers: { 'if-none-match': script.headers.get('etag')! } });
    await call('GET', '/api/assets/secrets.env');

    // Preflights, allowed and not.
    for (const path of ['/api/beacon', '/api/event', '/api/pulse']) {
      const method = path.endsWith('pulse') ? 'GET' : 'POST';
      await call('OPTIONS', path, { headers: { ...site, 'access-control-request-method': method } });
      await call('OPTIONS', path, { headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' } });
    }

    // The refusals a caller can meet, each in the one envelope.
    const hit = { address: '203.0.113.9', user_agent: AGENTS.firefoxLinux, path: '/' };
    await call('POST', '/api/hits', { headers: json, body: JSON.stringify(hit) });
    await call('POST', '/api/hits', { headers: { ...ingest, 'x-ingest-key': 'wrong' }, body: JSON.stringify(hit) });
    await call('POST', '/api/hits', { headers: ingest, body: JSON.stringify({ hits: [hit, { ...hit, at: 'yesterday' }] }) });
    await call('POST', '/api/hits', { headers: ingest, body: '{"address":' });
    await call('POST', '/api/hits', { headers: { ...ingest, 'content-type': 'text/csv' }, body: 'a,b' });
    await call('POST', '/api/hits', { headers: ingest, body: JSON.stringify({ hits: [{ ...hit, path: `/${'x'.repeat(600 * 1024)}` }] }) });
    await call('POST', '/api/beacon', { headers: { ...json, ...site }, body: JSON.stringify({ path: '/', address: '203.0.113.9' }) });
    await call('POST', '/api/beacon', { headers: { ...json, ...site }, body: JSON.stringify({ path: '/', status: true }) });
    await call('POST', '/api/beacon', { headers: { ...json, origin: 'https://elsewhere.example' }, body: JSON.stringify({ path: '/' }) });
    await call('POST', '/api/beacon', { headers: { 'content-type': 'application/xml', ...site }, body: '<path>/</path>' });
    await call('POST', '/api/beacon', { headers: { ...json, ...site }, body: JSON.stringify({ path: `/${'x'.repeat(5000)}` }) });
    // Plausible's Events API, as its trackers send it.
    const plausible = { n: 'pageview', u: 'https://site.example/pricing?utm_source=news', d: 'site.example' };
    await call('POST', '/api/event', { headers: { 'content-type': 'text/plain', ...site }, body: JSON.stringify(plausible) });
    await call('POST', '/api/event', { headers: { ...json, ...site }, body: JSON.stringify({ ...plausible, n: 'buy', $: { amount: 1 } }) });
    await call('POST', '/api/event', { headers: { ...json, origin: 'https://elsewhere.example' }, body: JSON.stringify(plausible) });
    await call('POST', '/api/event', { headers: { 'content-type': 'application/xml', ...site }, body: '<n>pageview</n>' });
    await call('POST', '/api/event', {
      headers: { ...json, ...site },
      body: JSON.stringify({ ...plausible, u: `https://site.example/${'x'.repeat(5000)}` }),
    });
    for (const path of [
      '/api/admin/visitors/people',
      '/api/admin/activity',
      '/api/admin/activity/visitors?day=2026-10-23',
      '/api/admin/subjects',
      '/api/admin/subjects/tree-42',
      '/api/admin/mark',
      '/api/admin/now',
      '/api/admin/retention?months=3',
      `/api/admin/export?from=${D0}&to=${D3}`,
    ]) {
      await call('GET', path);
    }
    for (const method of ['GET', 'POST'])
      await call(method, '/api/admin/keys', { headers: json, body: method === 'POST' ? '{}' : undefined });
    await call('DELETE', '/api/admin/keys/0000000000000000');
    await call('GET', '/api/admin/visitors/people', { headers: { authorization: 'Bearer wrong' } });
    await call('GET', '/api/admin/retention', { headers: { authorization: 'Bearer wrong' } });
    await call('GET', '/api/admin/activity?days=0', { headers: operator });
    await call('GET', '/api/admin/retention?months=37', { headers: operator });
    await call('GET', '/api/admin/activity/visitors?day=2026-02-30', { headers: operator });
    await call('GET', '/api/admin/subjects?sort=colour', { headers: operator });
    for (const query of [
      `to=${D3}`,
      `from=${D0}&to=2026-02-30`,
      `from=${D3}&to=${D0}`,
      'from=2025-01-01&to=2026-12-31',
      `from=${D0}&to=${D3}&format=xlsx`,
    ]) {
      await call('GET', `/api/admin/export?${query}`, { headers: operator });
    }
    // The import command's batches: the window, a log line and a day of another tool's totals, and the refusals.
    const line = {
      at: '2026-09-01T10:00:00+02:00',
      address: '203.0.113.9',
      user_agent: AGENTS.firefoxLinux,
      method: 'GET',
      path: '/',
      status: 200,
    };
    await call('POST', '/api/import', { headers: ingest, body: JSON.stringify({ hits: [] }) });
    await call('POST', '/api/import', { headers: ingest, body: JSON.stringify({ hits: [line, { ...line, method: 'POST' }] }) });
    await call('POST', '/api/import', {
      headers: ingest,
      body: JSON.stringify({ days: [{ day: '2026-09-02', visitors: 4, pages: { '/': 6 }, sources: { Google: 2 }, countries: { DE: 3 } }] }),
    });
    // That day's totals, folded, on the card of a period that holds it (`imported`).
    await t.host.drain();
    await t.fold();
    const card = await call('GET', '/api/admin/activity?from=2026-09-01&to=2026-09-03', { headers: operator });
    expect(card.json.imported).toMatchObject({ tools: ['plausible'], from: '2026-09-02', days: 1, visits: 4 });
    await call('POST', '/api/import', { headers: json, body: JSON.stringify({ hits: [line] }) });
    await call('POST', '/api/import', { headers: ingest, body: JSON.stringify({ hits: [{ ...line, address: 'localhost' }] }) });
    await call('POST', '/api/import', { headers: ingest, body: JSON.stringify({ until: '2999-01-01' }) });
    await call('POST', '/api/import', {
      headers: ingest,
      body: JSON.stringify({ hits: [{ ...line, path: `/${'x'.repeat(1100 * 1024)}` }] }),
    });
    await call('POST', '/api/import', {
      headers: { ...ingest, 'content-type': 'text/plain' },
      body: '203.0.113.9 - - [01/Sep/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1',
    });
    await call('GET', '/api/admin/subjects?continuation=bm90LW1pbmU', { headers: operator });
    await call('GET', '/api/admin/subjects/..%2Fx', { headers: operator });
    await call('GET', '/api/admin/subjects/never-scanned', { headers: operator });
    // A beacon with no Origin: no page of an allowed site sent it.
    await call('POST', '/api/beacon', { headers: json, body: JSON.stringify({ path: '/' }) });

    // A shared link: made, listed, read with its token, refused with a wrong one, revoked.
    const made = await call('POST', '/api/admin/links', {
      headers: { ...operator, ...json },
      body: JSON.stringify({ site: 'site.example', days: '7' }),
    });
    const share = { 'x-share-token': made.json.token as string };
    await call('POST', '/api/admin/links', { headers: { ...operator, ...json }, body: JSON.stringify({ site: 'elsewhere.example' }) });
    await call('GET', '/api/admin/links', { headers: operator });
    await call('GET', '/api/admin/sites', { headers: operator });
    await call('GET', '/api/admin/sites');
    await call('GET', '/api/admin/links');
    await call('POST', '/api/admin/links', { headers: json, body: '{}' });
    await call('GET', '/api/shared/activity', { headers: share });
    await call('GET', '/api/shared/activity', { headers: { 'x-share-token': 'a'.repeat(32) } });
    await call('DELETE', `/api/admin/links/${made.json.link.ref as string}`, { headers: operator });
    await call('DELETE', '/api/admin/links/0000000000000000', { headers: operator });
    await call('DELETE', '/api/admin/links/0000000000000000');
    await call('GET', '/api/shared/activity', { headers: share });

    // The configuration: read, changed with its version, refused without one, with a bad field and with an old one.
    const config = await call('GET', '/api/admin/config', { headers: operator });
    const version = { ...operator, ...json, 'if-match': config.headers.get('etag')! };
    const annotated = JSON.stringify({ ...config.json, annotations: [{ day: D0, note: 'Launch' }] });
    await call('PUT', '/api/admin/config', { headers: version, body: annotated });
    await call('PUT', '/api/admin/config', { headers: version, body: annotated });
    await call('PUT', '/api/admin/config', { headers: { ...operator, ...json }, body: annotated });
    await call('PUT', '/api/admin/config', { headers: version, body: JSON.stringify({ sites: [] }) });
    await call('GET', '/api/admin/config');
    await call('PUT', '/api/admin/config', { headers: json, body: annotated });

    // Mail's links: a recipient confirmed and unsubscribed, then wrong tokens until the address waits.
    const mailed = await call('GET', '/api/admin/config', { headers: operator });
    const siteName = mailed.json.sites[0].name as string;
    const email = [{ site: siteName, recipients: ['owner@example.com'] }];
    const mailVersion = { ...operator, ...json, 'if-match': mailed.headers.get('etag')! };
    expect((await call('PUT', '/api/admin/config', { headers: mailVersion, body: JSON.stringify({ ...mailed.json, email }) })).status).toBe(
      200,
    );
    await t.host.run('email');
    const [confirmation] = await outboxMails(t.env.EMAIL_OUTBOX!);
    const confirm = /\/api\/email\/confirm\?token=[\w-]{32}/.exec(confirmation!.text)![0];
    expect((await call('GET', confirm)).status).toBe(200);
    const leave = unsubscribeToken(t.env.HASH_KEY!, recipientHash(t.env.HASH_KEY!, siteName, 'owner@example.com'));
    expect((await call('GET', `/api/email/unsubscribe?token=${leave}`)).status).toBe(200);
    for (const action of ['unsubscribe', 'confirm', 'confirm', 'confirm', 'confirm', 'confirm', 'unsubscribe'])
      await call('GET', `/api/email/${action}?token=${'w'.repeat(32)}`);

    // The Admin session: asked for with nothing, signed in with the key, read with its cookie, signed out.
    await call('GET', '/api/admin/session');
    const started = await call('POST', '/api/admin/session', { headers: bearer });
    const cookie = started.headers
      .getSetCookie()
      .find((set) => set.startsWith('__Host-headcount_admin='))!
      .split(';')[0]!;
    await call('GET', '/api/admin/session', { headers: { cookie } });
    await call('GET', '/api/admin/visitors/people', { headers: { cookie } });
    await call('POST', '/api/admin/session', { headers: { cookie } });
    await call('POST', '/api/admin/session', { headers: { ...bearer, 'sec-fetch-site': 'cross-site' } });
    await call('DELETE', '/api/admin/session', { headers: { cookie, 'sec-fetch-site': 'cross-site' } });
    await call('DELETE', '/api/admin/session', { headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    // The API keys: made, listed, read with, refused and revoked; then wrong keys wait on five of their own.
    const keys = { ...operator, ...json };
    await call('POST', '/api/admin/keys', { headers: keys, body: JSON.stringify({ name: '' }) });
    const keyMade = await call('POST', '/api/admin/keys', { headers: keys, body: JSON.stringify({ name: 'a tool' }) });
    await call('GET', '/api/admin/keys', { headers: operator });
    const apiKey = { ...json, authorization: `Bearer ${keyMade.json.key}`, accept: 'application/json, text/event-stream' };
    const ask = (body: unknown, headers = apiKey) => call('POST', '/api/v2/query', { headers, body: JSON.stringify(body) });
    await ask({ metrics: ['visitors', 'pageviews'], date_range: '7d', dimensions: ['event:page'] });
    await ask({ metrics: ['revenue'], date_range: '7d' });
    await ask({ site_id: 'elsewhere.example', metrics: ['visitors'], date_range: '7d' });
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi', version: '1' } };
    await call('POST', '/api/mcp', {
      headers: apiKey,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize }),
    });
    for (const method of ['GET', 'DELETE']) {
      await call(method, '/api/mcp', { headers: apiKey });
      await call(method, '/api/mcp');
    }
    for (const path of ['/api/v2/query', '/api/mcp']) await call('POST', path, { headers: json, body: '{}' });
    await call('DELETE', `/api/admin/keys/${keyMade.json.api_key.ref}`, { headers: operator });
    await call('DELETE', '/api/admin/keys/0000000000000000', { headers: operator });
    const wrongKey = { ...apiKey, authorization: `Bearer hck_${'w'.repeat(32)}` };
    for (let i = 0; i < 5; i += 1) await ask({ metrics: ['visitors'], date_range: '7d' }, wrongKey);
    expect((await ask({ metrics: ['visitors'], date_range: '7d' }, wrongKey)).status).toBe(429);
    for (const method of ['POST', 'GET', 'DELETE'])
      expect((await call(method, '/api/mcp', { headers: wrongKey, body: method === 'POST' ? '{}' : undefined })).status).toBe(429);
    // Wrong keys from this address: past the free five it waits, and every admin route says so.
    for (let i = 0; i < 6; i += 1) await call(i % 2 ? 'POST' : 'GET', '/api/admin/session', { headers: { authorization: 'Bearer wrong' } });
    for (const path of [
      '/api/admin/session',
      '/api/admin/visitors/people',
      '/api/admin/activity',
      '/api/admin/activity/visitors?day=2026-10-23',
      '/api/admin/subjects',
      '/api/admin/subjects/tree-42',
      '/api/admin/mark',
      '/api/admin/now',
      '/api/admin/retention?months=3',
      `/api/admin/export?from=${D0}&to=${D3}`,
    ]) {
      expect((await call('GET', path, { headers: operator })).status).toBe(429);
    }
    expect((await call('POST', '/api/admin/session', { headers: bearer })).status).toBe(429);
    for (const method of ['GET', 'POST']) expect((await call(method, '/api/admin/links', { headers: operator })).status).toBe(429);
    expect((await call('GET', '/api/admin/sites', { headers: operator })).status).toBe(429);
    for (const method of ['GET', 'POST']) expect((await call(method, '/api/admin/keys', { headers: operator })).status).toBe(429);
    expect((await call('DELETE', '/api/admin/keys/0000000000000000', { headers: operator })).status).toBe(429);
    for (const method of ['GET', 'PUT']) expect((await call(method, '/api/admin/config', { headers: operator })).status).toBe(429);
    expect((await call('DELETE', '/api/admin/links/0000000000000000', { headers: operator })).status).toBe(429);
    // Each secret is counted apart: wrong link tokens, ingest keys and beacon claims wait on five of their own.
    for (let i = 0; i < 5; i += 1) await call('GET', '/api/shared/activity', { headers: { 'x-share-token': 'b'.repeat(32) } });
    expect((await call('GET', '/api/shared/activity', { headers: { 'x-share-token': 'a'.repeat(32) } })).status).toBe(429);
    for (let i = 0; i < 5; i += 1)
      await call('POST', '/api/hits', { headers: { ...ingest, 'x-ingest-key': 'wrong' }, body: JSON.stringify(hit) });
    expect((await call('POST', '/api/hits', { headers: ingest, body: JSON.stringify(hit) })).status).toBe(429);
    expect((await call('POST', '/api/import', { headers: ingest, body: JSON.stringify({ hits: [] }) })).status).toBe(429);
    const claim = { ...json, ...site, authorization: 'Bearer wrong' };
    for (let i = 0; i < 5; i += 1) await call('POST', '/api/beacon', { headers: claim, body: JSON.stringify({ path: '/' }) });
    expect((await call('POST', '/api/beacon', { headers: claim, body: JSON.stringify({ path: '/' }) })).status).toBe(429);
    const plausibleClaim = JSON.stringify({ n: 'pageview', u: 'https://site.example/', d: 'site.example' });
    expect((await call('POST', '/api/event', { headers: claim, body: plausibleClaim })).status).toBe(429);
  }, 180_000);
  afterAll(() => t?.stop());

  it('every answer holds to the document', () => {
    const validate = exchangeValidator(doc);
    expect(exchanges.length).toBeGreaterThan(50);
    expect(exchanges.flatMap(validate)).toEqual([]);
  });

  it('the run met every answer the document lists but the outages', () => {
    const validate = exchangeValidator(doc);
    const documented = Object.entries(doc.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>).flatMap(
      ([path, item]) =>
        Object.entries(item).flatMap(([method, operation]) =>
          Object.keys(operation.responses ?? {}).map((status) => `${method.toUpperCase()} ${path} ${status}`),
        ),
    );
    const templates = Object.keys(doc.paths as object);
    const met = new Set(
      exchanges
        .filter((exchange) => validate(exchange).length === 0)
        .map((exchange) => {
          const path = new URL(exchange.url).pathname;
          const template = templates.find((candidate) => new RegExp(`^${candidate.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
          return `${exchange.method} ${template} ${exchange.status}`;
        }),
    );
    expect(documented.filter((answer) => !met.has(answer)).sort()).toEqual([...NOT_EXERCISED].sort());
  });
});
