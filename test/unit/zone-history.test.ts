import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import { siteZones } from '../../shared/core/sites/zones';
import { zoneBook } from '../../shared/core/zone';

// A zone holds from the first local midnight after the store first saw it; the days kept before stay in theirs.

const zoneOf = zoneBook();

function daysOn(store: ReturnType<typeof memoryStore>, zone: string, at: string, keptNothing = false) {
  return siteZones({
    docs: store.timeZones,
    zone: zoneOf(zone),
    clock: fixedClock(at),
    keptNothing: () => Promise.resolve(keptNothing),
    zoneOf,
  });
}

describe('the zones a site’s days were kept in', () => {
  it('a zone set after UTC days were kept holds from the next local midnight, the days before staying UTC', async () => {
    const store = memoryStore();
    const days = await daysOn(store, 'America/New_York', '2026-10-23T12:00:00.000Z')();
    expect([days.zone.name, days.from]).toEqual(['America/New_York', '2026-10-24']);
    expect(days.dayOf(Date.parse('2026-10-23T23:30:00Z'))).toBe('2026-10-23');
    // Before New York's midnight of the 24th (04:00Z) a hit is on its UTC day; after it, on New York's.
    expect(days.dayOf(Date.parse('2026-10-24T03:30:00Z'))).toBe('2026-10-24');
    expect(days.dayOf(Date.parse('2026-10-25T03:30:00Z'))).toBe('2026-10-24');
    expect(days.zoneOfDay('2026-10-23').name).toBe('UTC');
    expect(days.zoneOfDay('2026-10-24').name).toBe('America/New_York');
    const kept = (await store.timeZones.read())!.doc;
    expect(kept.spans).toEqual([{ zone: 'America/New_York', from: '2026-10-24' }]);
    expect(kept.seen_at).toEqual(['2026-10-23T12:00:00.000Z']);
  });

  it('every instance and restart reads the same spans, so none moves the day on', async () => {
    const store = memoryStore();
    const [a, b] = await Promise.all([
      daysOn(store, 'America/New_York', '2026-10-23T12:00:00.000Z')(),
      daysOn(store, 'America/New_York', '2026-10-23T12:00:01.000Z')(),
    ]);
    const later = await daysOn(store, 'America/New_York', '2026-10-30T12:00:00.000Z')();
    expect([a.from, b.from, later.from]).toEqual(['2026-10-24', '2026-10-24', '2026-10-24']);
    expect((await store.timeZones.read())!.doc.spans).toHaveLength(1);
  });

  it('a zone changed later adds a span and rewrites none', async () => {
    const store = memoryStore();
    await daysOn(store, 'America/New_York', '2026-10-23T12:00:00.000Z')();
    const paris = await daysOn(store, 'Europe/Paris', '2026-11-05T12:00:00.000Z')();
    expect((await store.timeZones.read())!.doc.spans).toEqual([
      { zone: 'America/New_York', from: '2026-10-24' },
      { zone: 'Europe/Paris', from: '2026-11-06' },
    ]);
    expect(paris.from).toBe('2026-11-06');
    expect(paris.zoneOfDay('2026-10-30').name).toBe('America/New_York');
    expect(paris.dayOf(Date.parse('2026-10-20T12:00:00Z'))).toBe('2026-10-20');
    expect(paris.dayOf(Date.parse('2026-11-06T00:30:00Z'))).toBe('2026-11-06');
    expect(paris.dayOf(Date.parse('2026-11-05T22:30:00Z'))).toBe('2026-11-05');
  });

  it('a zone on a store that kept nothing holds every day, and UTC writes nothing', async () => {
    const fresh = memoryStore();
    expect((await daysOn(fresh, 'Asia/Kolkata', '2026-10-23T12:00:00.000Z', true)()).from).toBeNull();
    const utc = memoryStore();
    const days = await daysOn(utc, 'UTC', '2026-10-23T12:00:00.000Z', true)();
    expect([days.zone.name, days.from]).toEqual(['UTC', null]);
    expect(await utc.timeZones.read()).toBeNull();
  });
});
