import { afterAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/core/days';
import { fixedClock } from '../../shared/core/ports/clock';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

// One site counted for 30 days through the local host (real queue, local Cosmos server), then a second site added in
// Settings: all sites keep the first site's history, and each read names the site it answers.

const FIRST_DAY = '2026-10-01';
const clock = fixedClock(`${FIRST_DAY}T12:00:00.000Z`);
const BLOG = 'blog.example=https://blog.example';
const SHOP = { name: 'shop.example', origins: ['https://shop.example'] };
const agents = [AGENTS.chromeWindows, AGENTS.firefoxLinux, AGENTS.safariIphone];
/** Day n's people: three regulars and one of the day's own. */
const peopleOf = (n: number) => [
  ...agents.map((user_agent) => ({ address: '203.0.113.10', user_agent })),
  { address: `198.51.100.${n + 1}`, user_agent: AGENTS.chromeWindows },
];

describe('all sites from the first day', () => {
  let t: TestHost | undefined;
  afterAll(() => t?.stop());
  const read = async (path: string) =>
    (await fetch(`${t!.host.url}${path}`, { headers: { 'x-operator-key': t!.env.OPERATOR_KEY! } })).json();
  const hits = async (site: string | undefined, people: ReadonlyArray<{ address: string; user_agent: string }>) => {
    const sent = await post(
      `${t!.host.url}/api/hits`,
      { hits: people.map((person) => ({ ...person, path: '/', page_load: true, ...(site === undefined ? {} : { site }) })) },
      { 'x-ingest-key': t!.env.INGEST_KEY! },
    );
    expect(sent.status).toBe(202);
    await t!.host.drain();
    clock.advance(60_000);
    await t!.fold();
  };
  const period = `from=${addDays(FIRST_DAY, 1)}&to=${addDays(FIRST_DAY, 30)}`;
  const people = async (site: string) => (await read(`/api/admin/activity?${period}&site=${encodeURIComponent(site)}`)).headline.people;

  it("keeps the first site's 30 days in all sites once a second site is declared, each person once", async () => {
    t = await startTestHost({ env: { ALLOWED_ORIGINS: '', SITES: BLOG }, overrides: { clock } });
    // The first timer run moves the empty store to person ids before any hit, so no day's people span the switch
    // (a switch mid-history is test/unit/person-ids-wired.test.ts's).
    await t.fold();
    for (let n = 1; n <= 30; n += 1) {
      clock.set(`${addDays(FIRST_DAY, n)}T10:00:00.000Z`);
      await hits(undefined, peopleOf(n));
    }
    const blog = await people('blog.example');
    expect(blog).toBe(33);

    // The second site is added in Settings, with no restart: SITES only seeded the configuration.
    clock.set(`${addDays(FIRST_DAY, 31)}T10:00:00.000Z`);
    const config = await fetch(`${t.host.url}/api/admin/config`, { headers: { 'x-operator-key': t.env.OPERATOR_KEY! } });
    const added = await fetch(`${t.host.url}/api/admin/config`, {
      method: 'PUT',
      headers: { 'x-operator-key': t.env.OPERATOR_KEY!, 'content-type': 'application/json', 'if-match': config.headers.get('etag')! },
      body: JSON.stringify({ ...(await config.json()), sites: [{ name: 'blog.example', origins: ['https://blog.example'] }, SHOP] }),
    });
    expect(added.status).toBe(200);
    await t.fold();
    expect(await people('blog.example')).toBe(blog);
    // The second site has no visits yet: all sites are the first site.
    expect(await people('*')).toBe(blog);
    const exported = async (site: string) => (await read(`/api/admin/export?${period}&format=json&site=${encodeURIComponent(site)}`)).rows;
    expect(await exported('*')).toEqual(await exported('blog.example'));
    expect((await exported('*')).length).toBe(30);
    const allCount = await read('/api/admin/visitors/people?site=*');
    expect(allCount.people_all_time).toBe(33);
    expect(allCount.counted_from).toBe(addDays(FIRST_DAY, 1));

    // A regular of the blog and a newcomer visit the shop; the period read from today holds both sites.
    await hits('shop.example', [peopleOf(1)[0]!, { address: '192.0.2.9', user_agent: AGENTS.firefoxLinux }]);
    const recent = `from=${addDays(FIRST_DAY, 25)}&to=${addDays(FIRST_DAY, 31)}`;
    const recentPeople = async (site: string) => (await read(`/api/admin/activity?${recent}&site=${site}`)).headline.people;
    const [all, first, second] = await Promise.all([recentPeople('*'), recentPeople('blog.example'), recentPeople('shop.example')]);
    expect(all).toBeGreaterThanOrEqual(Math.max(first, second));
    expect(all).toBeLessThanOrEqual(first + second);
    expect([first, second, all]).toEqual([9, 2, 10]);
    const pulse = await (await fetch(`${t.host.url}/api/pulse?site=*`)).json();
    expect(pulse.site).toBe('*');
    expect(pulse.people_all_time).toBeGreaterThanOrEqual(34);
    expect(pulse.people_all_time).toBeLessThanOrEqual(35);
  });

  it('answers the pulse for the first declared site unless asked for another, and says which', async () => {
    const unnamed = await (await fetch(`${t!.host.url}/api/pulse`)).json();
    expect(unnamed.site).toBe('blog.example');
    expect(unnamed.people_all_time).toBe(33);
    const shop = await (await fetch(`${t!.host.url}/api/pulse?site=shop.example`)).json();
    expect([shop.site, shop.people_all_time]).toEqual(['shop.example', 2]);
  });
});
