import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import type { HitsMessage } from '../../shared/core/message';
import { ALL_SITES } from '../../shared/core/sites/sites';
import { emptyVisitorsSummary } from '../../shared/core/store/summary';
import { emptyVisits } from '../../shared/core/store/visits';
import { markAllSitesFrom } from '../../shared/fold/all-sites-from';
import type { KeepOutcome } from '../../shared/keep/keep';
import { keepBySite } from '../../shared/keep/sites';
import { joinedSummary, joinedVisits } from '../../shared/read/all-sites';
import { queuedHit } from '../support/counting';
import { oneZone, sharedDays } from '../../shared/core/sites/zones';
import { zoneOf } from '../../shared/core/zone';

const summary = (byDay: Record<string, number>) => ({
  ...emptyVisitorsSummary(),
  people_all_time: Object.values(byDay).reduce((a, b) => a + b, 0),
  people_new_by_day: byDay,
});

describe('the day all sites began', () => {
  it('is marked once: a later run, or one on another day, keeps the first', async () => {
    const store = memoryStore();
    await markAllSitesFrom(store, '2026-10-31');
    await markAllSitesFrom(store, '2026-11-01');
    expect((await store.allSitesFrom.read())?.doc.day).toBe('2026-10-31');
  });

  it('is the first day all sites already hold, where several sites were counted before this was kept', async () => {
    const store = memoryStore();
    await store.visitorsSummary.create({ ...summary({ '2026-09-12': 3 }), counted_from: '2026-09-12' });
    await markAllSitesFrom(store, '2026-11-01');
    expect((await store.allSitesFrom.read())?.doc.day).toBe('2026-09-12');
  });

  it("keeps in all sites every other site's hit, and the first site's only after that day", async () => {
    const kept = new Map<string, string[]>();
    const keep = async (message: HitsMessage, site: string): Promise<KeepOutcome> => {
      kept.set(
        site,
        message.hits.map((hit) => `${hit.site ?? 'first'}@${hit.at.slice(0, 10)}`),
      );
      return { ok: true, hits: message.hits.length, already: false };
    };
    const hits = [
      { ...queuedHit('2026-10-31T09:00:00.000Z'), site: undefined },
      { ...queuedHit('2026-10-31T09:00:00.000Z'), site: 'shop.example' },
      { ...queuedHit('2026-11-01T09:00:00.000Z'), site: 'blog.example' },
    ];
    const sites = { firstSite: 'blog.example', keepOf: (site: string) => site, allSitesFrom: async () => '2026-10-31' };
    const outcome = await keepBySite({ v: 1, id: '00000000-0000-4000-8000-000000000001', hits }, sites, keep);
    expect(outcome).toEqual({ ok: true, hits: 3, already: false });
    expect(kept.get(ALL_SITES)).toEqual(['shop.example@2026-10-31', 'blog.example@2026-11-01']);
    expect(kept.get('blog.example')).toEqual(['first@2026-10-31', 'blog.example@2026-11-01']);
  });

  it("joins the first site's days up to it: new people the larger on a day both hold, all time at most the sum of the sites'", () => {
    const first = summary({ '2026-10-30': 5, '2026-10-31': 2, '2026-11-01': 4 });
    const all = summary({ '2026-10-31': 3, '2026-11-01': 6 });
    const joined = joinedSummary(first, all, '2026-10-31', 11 + 4);
    expect(joined.people_new_by_day).toEqual({ '2026-10-30': 5, '2026-10-31': 3, '2026-11-01': 6 });
    expect(joined.people_all_time).toBe(14);
    expect(joined.counted_from).toBe('2026-10-30');
    expect(joinedSummary(first, all, '2026-10-31', 12).people_all_time).toBe(12);
    const visits = joinedVisits(
      { ...emptyVisits(), by_day: { '2026-10-30': 5, '2026-11-01': 4 } },
      { ...emptyVisits(), by_day: { '2026-11-01': 6 } },
      '2026-10-31',
    );
    expect(visits).toMatchObject({ all_time: 11, from: '2026-10-30', by_day: { '2026-10-30': 5, '2026-11-01': 6 } });
  });

  it("in a zone of its own, joins into its first day the first site's days that share its instants, each person once", () => {
    const tokyo = oneZone(zoneOf('Asia/Tokyo'));
    const york = oneZone(zoneOf('America/New_York'));
    // Tokyo's 24 October runs from 11:00 on the 23rd to 11:00 on the 24th in New York.
    const overlapping = sharedDays(tokyo, '2026-10-24', york);
    expect(overlapping).toEqual(['2026-10-23', '2026-10-24']);
    expect(sharedDays(york, '2026-10-24', york)).toEqual(['2026-10-24']);
    const first = summary({ '2026-10-22': 2, '2026-10-23': 1, '2026-10-24': 1, '2026-10-25': 4 });
    const all = summary({ '2026-10-24': 1, '2026-10-25': 6 });
    const joined = joinedSummary(first, all, '2026-10-24', 100, undefined, overlapping);
    expect(joined.people_new_by_day).toEqual({ '2026-10-22': 2, '2026-10-24': 1, '2026-10-25': 6 });
    expect(joined.people_all_time).toBe(9);
    // The sketches' union says how many of the three days' people were new on it.
    expect(joinedSummary(first, all, '2026-10-24', 100, 2, overlapping).people_new_by_day['2026-10-24']).toBe(2);
  });
});
