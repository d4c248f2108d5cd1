import type { Container } from '@azure/cosmos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { cellPartition } from '../../shared/core/rollup/filters';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, browserHeaders, post } from '../support/http';

// Three sites in one deployment, through the local host and the local Cosmos server: each hit is its site's, each
// read answers one site or all of them, and the first site's documents keep the keys of a deployment of one site.

const clock = fixedClock('2026-10-23T12:00:00.000Z');
const SITES = 'blog.example=https://blog.example,https://www.blog.example|docs.example=https://docs.example|shop.example=';
/** A goal of every site, and one that names its site. */
const GOALS = 'start=path:/start|cart@shop.example=path:/cart';
const ANN = { address: '203.0.113.10', user_agent: AGENTS.chromeWindows };
const BEN = { address: '203.0.113.11', user_agent: AGENTS.firefoxLinux };
const CAT = { address: '198.51.100.7', user_agent: AGENTS.safariIphone };

describe('several sites in one deployment', () => {
  let t: TestHost;
  let container: Container;
  const hits = (body: unknown) => post(`${t.host.url}/api/hits`, body, { 'x-ingest-key': t.env.INGEST_KEY! });
  const beacon = (origin: string, visitor: { address: string; user_agent: string }, body: Record<string, unknown>) =>
    post(`${t.host.url}/api/beacon`, JSON.stringify(body), {
      ...browserHeaders(visitor.user_agent),
      origin,
      'content-type': 'application/json',
      'user-agent': visitor.user_agent,
      'x-forwarded-for': visitor.address,
    });
  const read = async (path: string, key = true) => {
    const response = await fetch(`${t.host.url}${path}`, { headers: key ? { 'x-operator-key': t.env.OPERATOR_KEY! } : {} });
    return { status: response.status, json: await response.json() };
  };

  beforeAll(async () => {
    t = await startTestHost({ env: { ALLOWED_ORIGINS: '', SITES, GOALS, TRUSTED_PROXY_HOPS: '1' }, overrides: { clock } });
    container = await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('refuses a hit without a site, or of a site not declared, naming site', async () => {
    const missing = await hits({ ...ANN, path: '/' });
    expect(missing.status).toBe(400);
    expect(missing.json.error.issues[0].path).toBe('site');
    const batch = await hits({
      hits: [
        { ...ANN, path: '/', site: 'blog.example' },
        { ...ANN, path: '/', site: 'elsewhere.example' },
      ],
    });
    expect(batch.status).toBe(400);
    expect(batch.json.error.issues[0].path).toBe('hits.1.site');
    const otherOrigin = await beacon('https://blog.example', ANN, { path: '/', site: 'docs.example' });
    expect(otherOrigin.status).toBe(400);
    expect(otherOrigin.json.error.issues[0].path).toBe('site');
  });

  it('tells anyone who sends a beacon or reads the pulse the field that is wrong, and no site nor setting', async () => {
    const unknown = await beacon('https://blog.example', ANN, { path: '/', site: 'elsewhere.example' });
    const elsewhere = await beacon('https://blog.example', ANN, { path: '/', site: 'docs.example' });
    const shape = await beacon('https://blog.example', ANN, { path: '/', site: 'Not A Site!' });
    const origin = await beacon('https://evil.example', ANN, { path: '/' });
    const none = await post(`${t.host.url}/api/beacon`, JSON.stringify({ path: '/' }), {
      ...browserHeaders(ANN.user_agent),
      'content-type': 'application/json',
    });
    const pulse = await read('/api/pulse?site=elsewhere.example', false);
    const refusals = [unknown, elsewhere, shape, origin, none, pulse];
    expect(refusals.map((refusal) => refusal.status)).toEqual([400, 400, 400, 403, 403, 400]);
    expect(shape.json.error.issues[0].path).toBe('site');
    // A site not counted and a site of other origins are one answer, so a guess learns no site's name.
    expect(unknown.json).toEqual(elsewhere.json);
    expect(unknown.json.error.issues[0].path).toBe('site');
    expect(origin.json.error.message).toBe("origin: this page's origin is not one of the origins of a site counted here");
    for (const refusal of refusals) expect(JSON.stringify(refusal.json)).not.toMatch(/blog|docs|shop|SITES|ALLOWED_ORIGINS/);
  });

  it("keeps each hit in its site's count and all of them in all sites', each person once", async () => {
    // Ann reads the blog (a beacon from its www origin) and the docs; Ben the docs and the shop; Cat the shop only.
    expect((await beacon('https://www.blog.example', ANN, { path: '/' })).status).toBe(202);
    expect((await beacon('https://docs.example', ANN, { path: '/start', site: 'docs.example' })).status).toBe(202);
    expect((await hits({ hits: [{ ...BEN, path: '/start', site: 'docs.example', page_load: true }] })).status).toBe(202);
    expect((await hits({ hits: [{ ...BEN, path: '/cart', site: 'shop.example', page_load: true }] })).status).toBe(202);
    expect((await hits({ ...CAT, path: '/cart', site: 'shop.example', page_load: true })).status).toBe(202);
    await t.host.drain();
    clock.advance(60_000);
    await t.fold();
    const people = async (site: string) => (await read(`/api/admin/visitors/people?site=${encodeURIComponent(site)}`)).json.people_all_time;
    expect(await people('blog.example')).toBe(1);
    expect(await people('docs.example')).toBe(2);
    expect(await people('shop.example')).toBe(2);
    expect(await people('*')).toBe(3);
    // Without a site, a deployment of several reads the first declared.
    expect((await read('/api/admin/visitors/people')).json.people_all_time).toBe(1);
    const pulse = await (await fetch(`${t.host.url}/api/pulse?site=docs.example`)).json();
    expect([pulse.site, pulse.people_all_time]).toEqual(['docs.example', 2]);
    const card = (await read('/api/admin/activity?days=1&site=shop.example')).json;
    expect(card.by_day.at(-1).people).toBe(2);
    const all = (await read('/api/admin/activity?days=1&site=*')).json;
    expect(all.by_day.at(-1).people).toBe(3);
    // A goal that names its site counts there alone; the others on every site and on all of them.
    const goals = (answer: { goals: Array<{ goal: string; people_all_time: number }> }) =>
      Object.fromEntries(answer.goals.map((goal) => [goal.goal, goal.people_all_time]));
    expect(goals(card)).toEqual({ start: 0, cart: 2 });
    expect(goals((await read('/api/admin/activity?days=1&site=docs.example')).json)).toEqual({ start: 2 });
    expect(goals(all)).toEqual({ start: 2 });
  });

  it("keeps the first site's documents under the keys of one site, and every other site's under keys that carry its name", async () => {
    const keys = async (kind: string) =>
      (
        await container.items
          .query<{ pk: string }>({ query: 'SELECT c.pk FROM c WHERE c.kind = @kind', parameters: [{ name: '@kind', value: kind }] })
          .fetchAll()
      ).resources
        .map((doc) => doc.pk)
        .sort();
    expect(await keys('visitors-summary')).toEqual(['*|visitors', 'docs.example|visitors', 'shop.example|visitors', 'visitors']);
    expect(await keys('day-rollup')).toEqual(['*|2026-10-23', '2026-10-23', 'docs.example|2026-10-23', 'shop.example|2026-10-23']);
  });

  it("answers a filtered retention read of a site from that site's own cells, and several filters and ! from the visitor-days, refusing more than 13 months of them naming filter", async () => {
    const retention = async (query: string) => (await read(`/api/admin/retention?months=1&${query}`)).json;
    const october = async (query: string) => {
      const [cohort] = (await retention(query)).cohorts;
      return [cohort.people, cohort.months[0].people];
    };
    // Ben and Cat loaded /cart on the shop; nobody loaded it on the docs, whose cohort is Ann and Ben.
    expect(await october('site=shop.example&filter=page:/cart')).toEqual([2, 2]);
    expect(await october('site=docs.example&filter=page:/cart')).toEqual([2, 0]);
    expect(await october('site=docs.example&filter=page:/start')).toEqual([2, 2]);
    expect(await october('site=*&filter=page:/cart')).toEqual([3, 2]);
    const cells = await container.items
      .query<{ pk: string }>({ query: "SELECT c.pk FROM c WHERE c.kind = 'cohort-cell' AND c.id = 'month:2026-10:2026-10'" })
      .fetchAll();
    const cart = cellPartition('page', '/cart');
    expect(cells.resources.map((doc) => doc.pk).filter((pk) => pk.endsWith(cart))).toEqual(
      expect.arrayContaining([`shop.example|${cart}`, `*|${cart}`]),
    );
    // Several filters and ! are summed from the visitor-days, by the same rule as a filter's cells.
    expect(await october('site=shop.example&filter=page:/cart&filter=!page:/nowhere')).toEqual([2, 2]);
    expect(await october('site=docs.example&filter=!page:/cart')).toEqual([2, 2]);
    const refused = await read('/api/admin/retention?site=shop.example&months=14&filter=page:/cart&filter=page:/start');
    expect(refused.status).toBe(400);
    expect(refused.json.error.issues[0]).toMatchObject({ path: 'filter', message: expect.stringContaining('at most 13 months') });
  });

  it("imports a site's old lines into that site and all sites, never into all sites alone", async () => {
    const line = {
      at: '2026-10-22T09:00:00Z',
      address: '192.0.2.44',
      user_agent: AGENTS.firefoxLinux,
      method: 'GET',
      path: '/cart',
      status: 200,
    };
    const ingest = { 'x-ingest-key': t.env.INGEST_KEY! };
    expect((await post(`${t.host.url}/api/import?site=*`, { hits: [line] }, ingest)).status).toBe(400);
    const imported = await post(`${t.host.url}/api/import?site=shop.example`, { hits: [line] }, ingest);
    expect(imported.status).toBe(202);
    expect(imported.json.accepted).toBe(1);
    await t.host.drain();
    for (let run = 0; run < 3; run += 1) await t.fold();
    const people = async (site: string) => (await read(`/api/admin/visitors/people?site=${encodeURIComponent(site)}`)).json;
    expect(await people('shop.example')).toMatchObject({ people_all_time: 3, counted_from: '2026-10-22' });
    expect((await people('*')).people_all_time).toBe(4);
    expect((await people('docs.example')).people_all_time).toBe(2);
    // A day before all sites began that another site's import brought to all sites is on their card too.
    const day = async (site: string) => (await read(`/api/admin/activity?from=2026-10-22&to=2026-10-22&site=${site}`)).json.headline.people;
    expect([await day('shop.example'), await day('*')]).toEqual([1, 1]);
  });

  it('answers a read of a site not declared 400 naming site, and only to the operator', async () => {
    const asked = await read('/api/admin/activity?site=elsewhere.example');
    expect(asked.status).toBe(400);
    expect(asked.json.error.issues[0].path).toBe('site');
    expect((await read('/api/admin/activity?site=elsewhere.example', false)).status).toBe(401);
  });

  it("decides a scan's new or returning on its own site", async () => {
    const scan = async (origin: string) => (await beacon(origin, CAT, { path: '/poster', subject: 'poster-1', status: true })).json.status;
    expect(await scan('https://docs.example')).toBe('new');
    expect(await scan('https://docs.example')).toBe('returning');
    expect(await scan('https://blog.example')).toBe('new');
  });
});
