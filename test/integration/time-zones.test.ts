import type { Container } from '@azure/cosmos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

// A site in New York, through the local host, Azurite and the local Cosmos server: its days are New York's dates,
// its daily token rotates at New York's midnight, and its hours are New York's clock hours.

const clock = fixedClock('2026-10-23T12:00:00.000Z');
const ANN = { address: '203.0.113.10', user_agent: AGENTS.chromeWindows };

interface LocalHour {
  hour: string;
  requests: number;
}

describe('a site whose days are New York’s', () => {
  let t: TestHost;
  let container: Container;
  const hits = (body: unknown) => post(`${t.host.url}/api/hits`, body, { 'x-ingest-key': t.env.INGEST_KEY! });
  const read = async (path: string) => {
    const response = await fetch(`${t.host.url}${path}`, { headers: { 'x-operator-key': t.env.OPERATOR_KEY! } });
    return response.json();
  };
  const keep = async (...ats: string[]) => {
    expect((await hits({ hits: ats.map((at) => ({ ...ANN, at, path: '/', page_load: true })) })).status).toBe(202);
    await t.host.drain();
    clock.advance(60_000);
    await t.fold();
  };
  const visitorDays = async () =>
    (
      await container.items.query<{ pk: string; token: string }>("SELECT c.pk, c.token FROM c WHERE c.kind = 'visitor-day'").fetchAll()
    ).resources.sort((a, b) => (a.pk < b.pk ? -1 : 1));

  beforeAll(async () => {
    t = await startTestHost({ env: { TIME_ZONE: 'America/New_York' }, overrides: { clock } });
    container = await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('keeps hits at 03:30Z and 05:30Z as two visits on two local days, and the person once', async () => {
    // 23:30 on the 22nd and 01:30 on the 23rd in New York: one UTC day, two local ones.
    await keep('2026-10-23T03:30:00.000Z', '2026-10-23T05:30:00.000Z');
    const days = await visitorDays();
    expect(days.map((day) => day.pk)).toEqual(['2026-10-22', '2026-10-23']);
    // The daily token rotated at local midnight: the two visits cannot be joined.
    expect(days[0]!.token).not.toBe(days[1]!.token);
    const people = await read('/api/admin/visitors/people');
    expect(people.people_all_time).toBe(1);
    expect(people.visits.by_day.slice(-2)).toEqual([
      { day: '2026-10-22', visits: 1 },
      { day: '2026-10-23', visits: 1 },
    ]);
    expect(people.time_zone).toBe('America/New_York');
    // The store kept nothing before the zone: it holds every day, so no day is said to be in another.
    expect(people.time_zone_from).toBeUndefined();
    const card = await read('/api/admin/activity?days=2');
    expect([card.from, card.to, card.time_zone]).toEqual(['2026-10-22', '2026-10-23', 'America/New_York']);
    expect(card.by_day.map((day: { people: number }) => day.people)).toEqual([1, 1]);
    expect(card.headline.visits).toBe(2);
    expect(card.headline.people).toBe(1);
  });

  it('answers the two days’ local clock hours, with the day before’s beside them', async () => {
    const card = await read('/api/admin/activity?days=2');
    expect(card.by_hour).toHaveLength(48);
    expect(card.by_hour[0].hour).toBe('2026-10-22T00:00:00-04:00');
    const counted = card.by_hour.filter((hour: LocalHour) => hour.requests > 0);
    expect(counted).toEqual([
      expect.objectContaining({ hour: '2026-10-22T23:00:00-04:00', requests: 1 }),
      expect.objectContaining({ hour: '2026-10-23T01:00:00-04:00', requests: 1 }),
    ]);
    expect(card.previous.by_hour).toHaveLength(48);
    expect((await read('/api/admin/activity?days=7')).by_hour).toBeUndefined();
  });

  it('answers 25 hours on 1 November, when New York’s clocks go back, the repeated 01:00 at each offset', async () => {
    clock.set('2026-11-01T20:00:00.000Z');
    await keep('2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z');
    const card = await read('/api/admin/activity?days=1');
    expect(card.to).toBe('2026-11-01');
    expect(card.by_hour).toHaveLength(25);
    expect(card.previous.by_hour).toHaveLength(24);
    expect(card.by_hour.filter((hour: LocalHour) => hour.requests > 0).map((hour: LocalHour) => hour.hour)).toEqual([
      '2026-11-01T01:00:00-04:00',
      '2026-11-01T01:00:00-05:00',
    ]);
    // One local day, one visit, though the clock showed 01:30 twice.
    expect(card.headline.visits).toBe(1);
  });

  it('counts a subject’s scans, the last 30 minutes and the last 48 hours on New York’s days and clock', async () => {
    // 00:50Z on the 3rd is 19:50 on the 2nd in New York; the clock reads 20:01 there.
    clock.set('2026-11-03T01:00:00.000Z');
    const scan = { ...ANN, at: '2026-11-03T00:50:00.000Z', path: '/scan', subject: 'tree-1' };
    expect((await hits({ hits: [scan] })).status).toBe(202);
    await t.host.drain();
    clock.advance(60_000);
    await t.fold();
    const subject = await read('/api/admin/subjects/tree-1?days=2');
    expect(subject.by_day).toEqual([
      { day: '2026-11-01', scans: 0, new: 0 },
      { day: '2026-11-02', scans: 1, new: 1 },
    ]);
    expect(subject.time_zone).toBe('America/New_York');
    const now = await read('/api/admin/now');
    expect(now.people_last_30_minutes).toBe(1);
    expect(now.by_minute.filter((minute: { people: number }) => minute.people > 0)).toEqual([
      { minute: '2026-11-03T00:50:00.000Z', people: 1 },
    ]);
    const hours = (await read('/api/admin/activity?days=1')).hours as Array<{ hour: string; requests: number }>;
    expect(hours).toHaveLength(48);
    expect(hours.at(-1)!.hour).toBe('2026-11-02T20:00:00-05:00');
    expect(hours.filter((hour) => hour.requests > 0).map((hour) => hour.hour)).toEqual([
      '2026-11-01T01:00:00-04:00',
      '2026-11-01T01:00:00-05:00',
      '2026-11-02T19:00:00-05:00',
    ]);
  });
});

describe('two sites in two zones, and all sites in a zone of their own', () => {
  let t: TestHost;
  let container: Container;
  // 20:00Z is 16:00 on the 23rd in New York, 01:30 on the 24th in Kolkata and 05:00 on the 24th in Tokyo.
  const allClock = fixedClock('2026-10-23T20:00:00.000Z');
  const read = async (path: string) => {
    const response = await fetch(`${t.host.url}${path}`, { headers: { 'x-operator-key': t.env.OPERATOR_KEY! } });
    return response.json();
  };

  beforeAll(async () => {
    t = await startTestHost({
      env: { ALLOWED_ORIGINS: '', SITES: 'ny.example=;zone=America/New_York|in.example=;zone=Asia/Kolkata|*;zone=Asia/Tokyo' },
      overrides: { clock: allClock },
    });
    container = await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('keeps all sites on Tokyo’s days, records that zone as any site’s, and a person seen on both sites is one', async () => {
    const hits = ['ny.example', 'in.example'].map((site) => ({ ...ANN, site, at: '2026-10-23T19:59:00.000Z', path: '/', page_load: true }));
    expect((await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! })).status).toBe(202);
    await t.host.drain();
    allClock.advance(60_000);
    await t.fold();
    const all = await read('/api/admin/activity?site=*&days=1');
    expect([all.to, all.time_zone, all.headline.people, all.headline.visits]).toEqual(['2026-10-24', 'Asia/Tokyo', 1, 1]);
    expect((await read('/api/admin/visitors/people?site=*')).people_all_time).toBe(1);
    expect((await read('/api/admin/activity?site=ny.example&days=1')).to).toBe('2026-10-23');
    expect((await read('/api/admin/activity?site=in.example&days=1')).to).toBe('2026-10-24');
    const zones = (
      await container.items.query<{ spans: Array<{ zone: string }> }>("SELECT c.spans FROM c WHERE c.kind = 'time-zones'").fetchAll()
    ).resources.map((doc) => doc.spans.map((span) => span.zone).join(','));
    expect(zones.sort()).toEqual(['America/New_York', 'Asia/Kolkata', 'Asia/Tokyo']);
  });
});
