import { utcZone } from '../support/hit-days';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, MEMORY_SOURCE } from '../../adapters/memory/store';
import { DAYS, pulseOf, readPeopleCount, type PeopleCountDeps } from '../../shared/read/counting/people-count';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Store } from '../../shared/core/store';
import { foldOnce, keepAndFold, keepHits, queuedHit } from '../support/counting';

// The seed's clock: half an hour before midnight UTC, where a local-time day would already be tomorrow east of UTC.
const TODAY = '2026-10-23T23:30:00.000Z';

const depsOf = (store: Store, at = TODAY): PeopleCountDeps => ({
  ...utcZone,
  visitorsSummary: store.visitorsSummary,
  visits: store.visits,
  foldState: store.foldState,
  clock: fixedClock(at),
  source: store.source,
});

const seen = (person: string, day: string, bot = false) => queuedHit(`${day}T12:00:00.000Z`, { person, bot });

describe("the count of people, each counted once (the seed's VisitorTests)", () => {
  const timeZone = process.env.TZ;
  afterEach(() => {
    // The files of a worker share its process: TZ goes back to what it was, unset if it was.
    if (timeZone === undefined) delete process.env.TZ;
    else process.env.TZ = timeZone;
  });

  it('is all time 4, new today 1, new this month 3, scanners left out 1, and 30 UTC days oldest first', async () => {
    const store = memoryStore();
    const clock = fixedClock(TODAY);
    await keepAndFold(store, clock, [
      seen('a', '2026-10-20'),
      seen('b', '2026-10-23', true),
      seen('c', '2026-10-01'),
      seen('d', '2026-09-30'),
      seen('e', '2026-10-23'),
    ]);
    await keepAndFold(store, clock, [seen('a', '2026-10-23')]);

    const count = await readPeopleCount(depsOf(store));

    expect(count.people_all_time).toBe(4);
    expect(count.people_new_today).toBe(1);
    expect(count.people_new_month).toBe(3);
    expect(count.scanners_left_out).toBe(1);
    expect(count.counted_from).toBe('2026-09-30');
    expect(count.people_new_by_day).toHaveLength(DAYS);
    expect(count.people_new_by_day![0]).toEqual({ day: '2026-09-24', people: 0 });
    expect(count.people_new_by_day!.at(-1)).toEqual({ day: '2026-10-23', people: 1 });
    expect(count.people_new_by_day!.find((day) => day.day === '2026-10-20')?.people).toBe(1);
    expect(count.people_new_by_day!.map((day) => day.day)).toEqual([...count.people_new_by_day!.map((day) => day.day)].sort());
    expect(count.source).toBe(MEMORY_SOURCE);
    // The fold counts the visits too: a on two days, c, d and e; b is a scanner.
    expect(count.visits).toMatchObject({ all_time: 5, from: '2026-09-30' });
  });

  it('runs from the first person, not the first scanner', async () => {
    const store = memoryStore();
    const clock = fixedClock(TODAY);
    await keepAndFold(store, clock, [seen('s', '2026-10-22', true)]);
    expect((await readPeopleCount(depsOf(store))).counted_from).toBeNull();

    await keepAndFold(store, clock, [seen('p', '2026-10-23')]);

    const count = await readPeopleCount(depsOf(store));
    expect(count.counted_from).toBe('2026-10-23');
    expect(count.scanners_left_out).toBe(1);
  });

  it('takes its days in UTC whatever the zone the process runs in', async () => {
    process.env.TZ = 'Pacific/Kiritimati'; // UTC+14: 23:30 UTC on the 23rd is the 24th there
    const store = memoryStore();
    const clock = fixedClock(TODAY);
    await keepAndFold(store, clock, [
      queuedHit('2026-10-22T23:59:59.000Z', { person: 'late' }),
      queuedHit('2026-10-23T00:00:00.000Z', { person: 'early' }),
    ]);

    const count = await readPeopleCount(depsOf(store));

    expect(count.people_new_today).toBe(1);
    expect(count.people_new_by_day!.at(-1)).toEqual({ day: '2026-10-23', people: 1 });
    expect(count.people_new_by_day!.at(-2)).toEqual({ day: '2026-10-22', people: 1 });
  });

  it('counts this month from the first of the month even when it is longer ago than the 30 days', async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-10-31T23:30:00.000Z');
    await keepAndFold(store, clock, [seen('first', '2026-10-01'), seen('last', '2026-10-31'), seen('before', '2026-09-30')]);

    const count = await readPeopleCount(depsOf(store, '2026-10-31T23:30:00.000Z'));

    expect(count.people_new_month).toBe(2);
    expect(count.people_new_by_day![0]!.day).toBe('2026-10-02');
  });

  it('answers null figures and says why when the store cannot be read, and the pulse says the same', async () => {
    const store = memoryStore();
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const deps: PeopleCountDeps = {
      ...depsOf(store),
      visitorsSummary: { peopleFrom: () => Promise.reject(down) },
      visits: { read: () => Promise.reject(down) },
    };

    const count = await readPeopleCount(deps);

    expect(count).toEqual({
      people_all_time: null,
      people_new_today: null,
      people_new_month: null,
      scanners_left_out: null,
      counted_from: null,
      people_new_by_day: null,
      source: 'unread: the store did not answer (ECONNREFUSED)',
      visits: null,
      behind_since: null,
      // The zone set is named even when the store cannot answer.
      time_zone: 'UTC',
    });
    expect(pulseOf(count)).toEqual({
      people_all_time: null,
      people_new_by_day: null,
      counted_from: null,
      visits_all_time: null,
      visits_from: null,
      visits_by_day: null,
      source: 'unread: the store did not answer (ECONNREFUSED)',
      behind_since: null,
      time_zone: 'UTC',
    });
  });

  it('says the count is behind while the timer has more to count, and answers no zero before anything is counted', async () => {
    const store = memoryStore();
    const clock = fixedClock(TODAY);
    await keepHits(store, clock, [seen('a', '2026-10-20')]);
    const behind = { since: '2026-10-23T20:00:00.000Z', reason: 'the store did not answer every call' };
    const state = (doc: object | null) => ({
      read: () => Promise.resolve(doc === null ? null : { doc: { behind: null, ...doc } as never, etag: '"1"' }),
    });
    // Kept but not folded yet, with the timer behind: no figure, and why.
    const notYet = await readPeopleCount({ ...depsOf(store), foldState: state({ behind }) });
    expect(notYet).toMatchObject({ people_all_time: null, behind_since: behind.since, source: expect.stringContaining('not counted yet') });
    expect(pulseOf(notYet)).toMatchObject({ people_all_time: null, behind_since: behind.since });
    // Folded once, and behind again: the figures stand, and the source says since when they are behind.
    await foldOnce(store, clock);
    const held = await readPeopleCount({ ...depsOf(store), foldState: state({ behind }) });
    expect(held).toMatchObject({
      people_all_time: 1,
      behind_since: behind.since,
      source: expect.stringContaining(`behind since ${behind.since}`),
    });
    expect(await readPeopleCount(depsOf(store))).toMatchObject({ people_all_time: 1, behind_since: null });
  });

  it('costs three point reads and no query, however many visitors there are', async () => {
    for (const visitors of [10, 1_000]) {
      const store = memoryStore();
      const clock = fixedClock(TODAY);
      await keepAndFold(
        store,
        clock,
        Array.from({ length: visitors }, (_, i) => seen(`v${i}`, '2026-10-20')),
      );
      const before = store.stats();
      await readPeopleCount(depsOf(store));
      const after = store.stats();
      expect({ reads: after.reads - before.reads, queries: after.queries - before.queries, writes: after.writes - before.writes }).toEqual({
        reads: 3,
        queries: 0,
        writes: 0,
      });
    }
  });
});
