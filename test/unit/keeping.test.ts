import { describe, expect, it } from 'vitest';
import { MEMORY_SOURCE, memoryStore } from '../../adapters/memory/store';
import type { HitsMessage, QueuedHit } from '../../shared/hits/message';
import { PRUNE_EVERY, GRACE_SECONDS } from '../../shared/keeping/applied';
import { addCapped } from '../../shared/keeping/counts';
import { keeper } from '../../shared/keeping/keep';
import { planOf } from '../../shared/keeping/plan';
import { sightedRecord } from '../../shared/keeping/visitor';
import { fixedClock } from '../../shared/ports/clock';
import { OTHER_PATHS } from '../../shared/store/activity';
import { personHash, queued } from '../support/hits';

let serial = 0;
const message = (hits: QueuedHit[]): HitsMessage => ({ v: 1, id: `00000000-0000-4000-8000-${String((serial += 1)).padStart(12, '0')}`, hits });

describe('a message planned', () => {
  it('makes one sighting per person hash per day by the one rule, none for the site itself, and activity for all', () => {
    const plan = planOf([
      queued('a', '2026-10-22T10:00:00.000Z'),
      queued('a', '2026-10-22T10:30:00.000Z', { bot: true }),
      queued('a', '2026-10-23T00:00:00.000Z', { bot: true }),
      queued('s', '2026-10-22T11:00:00.000Z', { bot: true, path: '/.env' }),
      queued(null, '2026-10-22T11:05:00.000Z', { path: '/health' }),
    ]);
    expect(Object.fromEntries(plan.sightings)).toEqual({
      [personHash('a')]: [
        { day: '2026-10-22', kind: 'people' },
        { day: '2026-10-23', kind: 'scanners' },
      ],
      [personHash('s')]: [{ day: '2026-10-22', kind: 'scanners' }],
    });
    expect(plan.visitorDays.map((part) => [part.day, part.requests, part.bots, part.self])).toEqual([
      ['2026-10-22', 2, 1, 0],
      ['2026-10-23', 1, 1, 0],
      ['2026-10-22', 1, 1, 0],
      ['2026-10-22', 1, 0, 1],
    ]);
    expect(plan.hours.map((part) => [part.hour, part.requests, part.paths])).toEqual([
      ['2026-10-22T10:00:00.000Z', 2, { '/': 2 }],
      ['2026-10-23T00:00:00.000Z', 1, { '/': 1 }],
      ['2026-10-22T11:00:00.000Z', 2, { '/.env': 1, '/health': 1 }],
    ]);
  });
});

describe('a visitor record merged', () => {
  const seen = (current: Parameters<typeof sightedRecord>[0], day: string, kind: 'people' | 'scanners') => sightedRecord(current, 'h', [{ day, kind }]);

  it('counts each day once in whatever order the days come, and a day seen again changes nothing', () => {
    const first = seen(null, '2026-10-23', 'people')!.record;
    const third = seen(first, '2026-10-21', 'people')!.record;
    const second = seen(third, '2026-10-22', 'people')!.record;
    expect(second).toMatchObject({ first_seen: '2026-10-21', last_seen: '2026-10-23', days_seen: 3, counted_on: '2026-10-21' });
    expect(seen(second, '2026-10-22', 'people')).toBeNull();
    expect(seen(second, '2026-10-22', 'scanners')).toBeNull();
  });

  it('moves a scanner who reads as a person from the scanners to the people, on the day they read so', () => {
    const scanner = seen(null, '2026-10-21', 'scanners')!;
    expect(scanner.record).toMatchObject({ who: 'scanners', ttl: 7_776_000, counted_on: null });
    expect(scanner.delta).toEqual({ people: 0, scanners: 1, by_day: {}, counted_from: null });
    const person = seen(scanner.record, '2026-10-22', 'people')!;
    expect(person.record).toMatchObject({ who: 'people', ttl: -1, counted_on: '2026-10-22', days_seen: 2 });
    expect(person.delta).toEqual({ people: 1, scanners: -1, by_day: { '2026-10-22': 1 }, counted_from: '2026-10-22' });
    // A person never goes back to being a scanner.
    expect(seen(person.record, '2026-10-23', 'scanners')!.record.who).toBe('people');
  });
});

describe('top paths', () => {
  it('are capped, the rest summed under (other), so the counts still add up', () => {
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, n) => [`/p${String(n).padStart(2, '0')}`, n + 1]));
    const capped = addCapped({}, many, 10);
    expect(Object.keys(capped)).toHaveLength(10);
    expect(capped['/p59']).toBe(60);
    expect(capped[OTHER_PATHS]).toBe(Object.values(many).reduce((a, b) => a + b, 0) - (60 + 59 + 58 + 57 + 56 + 55 + 54 + 53 + 52));
    const again = addCapped(capped, { '/new': 1 }, 10);
    expect(Object.values(again).reduce((a, b) => a + b, 0)).toBe(Object.values(capped).reduce((a, b) => a + b, 0) + 1);
    expect(Object.keys(again)).toHaveLength(10);
  });
});

describe('the keeper on the memory store', () => {
  it('says its records are kept in memory and lost on restart', () => {
    expect(memoryStore().source).toBe(MEMORY_SOURCE);
    expect(MEMORY_SOURCE).toMatch(/memory.*lost on restart/);
  });

  it('keeps a message once however often it comes, and reads a visitor kept today no more', async () => {
    const store = memoryStore();
    const keep = keeper(store, fixedClock('2026-10-23T12:00:00Z'));
    const first = message([queued('a', '2026-10-23T10:00:00.000Z')]);
    expect(await keep(first)).toEqual({ ok: true, hits: 1, already: false });
    expect(await keep(first)).toEqual({ ok: true, hits: 1, already: true });
    const before = store.stats();
    await keep(message([queued('a', '2026-10-23T10:05:00.000Z')]));
    // The receipt and the two activity documents are read; the record is not, and not written.
    expect(store.stats().reads - before.reads).toBe(3);
    expect(await store.visitors.tally('2026-10-01')).toEqual({ people_all_time: 1, scanners_left_out: 0, counted_from: '2026-10-23', people_new_by_day: { '2026-10-23': 1 } });
    const [day] = await store.activityReader.visitorDaysSince('2026-10-23');
    expect(day).toMatchObject({ requests: 2 });
  });

  it('prunes a document’s applied messages once their receipts are past the grace, and keeps unfinished ones', async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-10-23T12:00:00Z');
    const keep = keeper(store, clock);
    const unfinished = message([queued('u', '2026-10-23T10:00:00.000Z')]);
    // A message that wrote the hour document and died before its receipt.
    const dying = keeper({ ...store, receipts: { ...store.receipts, create: () => Promise.reject(new Error('died')) } }, clock);
    expect((await dying(unfinished)).ok).toBe(false);
    for (let n = 0; n < PRUNE_EVERY * 2; n += 1) {
      clock.advance(GRACE_SECONDS * 1000);
      await keep(message([queued(`v${n}`, '2026-10-23T10:00:00.000Z')]));
    }
    const hour = (await store.activityReader.hoursSince('2026-10-23'))[0]!;
    expect(hour.requests).toBe(PRUNE_EVERY * 2 + 1);
    expect(Object.keys(hour.applied).length).toBeLessThan(PRUNE_EVERY + 2);
    expect(hour.applied[unfinished.id]).toBeDefined();
    // Its retry still counts it once.
    await keep(unfinished);
    expect((await store.activityReader.hoursSince('2026-10-23'))[0]!.requests).toBe(PRUNE_EVERY * 2 + 1);
  });
});
