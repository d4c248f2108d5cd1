import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { readPeopleCount } from '../../shared/counting/people-count';
import { FULL_EVERY_MS, recount, RETRY_AFTER_MS, type RecountDeps } from '../../shared/counting/recount';
import { countVisits, mergeVisits, visitsTotals } from '../../shared/counting/visits';
import { fixedClock } from '../../shared/ports/clock';
import { memoryLogger } from '../../shared/ports/logger';
import type { VisitorDay } from '../../shared/store';
import { visitorDay } from '../support/counting';

const MINUTE = 60_000;

describe('visits by people: one a person a day, from the daily tokens', () => {
  it('counts one person on two days as two visits, one person through two stores as one, and scanners, self and loopback as none', () => {
    const rows = [
      visitorDay('2026-09-24', 'a1', { requests: 4 }),
      visitorDay('2026-09-25', 'a2', { requests: 2, bots: 1 }),
      visitorDay('2026-09-25', 'b1', { store: 'site' }),
      visitorDay('2026-09-25', 'b1', { store: 'shop', requests: 3 }),
      visitorDay('2026-09-25', 's1', { requests: 5, bots: 5 }),
      visitorDay('2026-09-25', 't1', { requests: 9, self: 9 }),
      visitorDay('2026-09-26', 'l1', { network: '127.0.0.x', self: 1 }),
      visitorDay('2026-09-26', 'l2', { network: '127.0.0.x', self: 1 }),
    ];
    const byDay = countVisits(rows);
    expect(byDay).toEqual({ '2026-09-24': 1, '2026-09-25': 2 });
    expect(visitsTotals(byDay)).toEqual({ all_time: 3, from: '2026-09-24' });
    expect(countVisits([])).toEqual({});
  });

  it('counts every loopback row on a day as one machine, and a scanner read on another store as the stronger kind', () => {
    const loopback = [visitorDay('2026-09-26', 'l1', { network: '127.0.0.x' }), visitorDay('2026-09-26', 'l2', { network: '127.0.0.x' })];
    expect(countVisits(loopback)).toEqual({ '2026-09-26': 1 });
    const mixed = [visitorDay('2026-09-26', 'm', { bots: 1, store: 'site' }), visitorDay('2026-09-26', 'm', { store: 'shop' })];
    expect(countVisits(mixed)).toEqual({ '2026-09-26': 1 });
    const owner = [visitorDay('2026-09-26', 'o', { store: 'site' }), visitorDay('2026-09-26', 'o', { self: 1, store: 'shop' })];
    expect(countVisits(owner)).toEqual({});
  });

  it('merges a later count: the days before the read stay, the days read again are replaced, a quiet window is none', () => {
    const held = { '2026-09-24': 1, '2026-09-25': 2 };
    const merged = mergeVisits(held, { '2026-09-25': 3, '2026-09-26': 2 }, '2026-09-25');
    expect(merged).toEqual({ '2026-09-24': 1, '2026-09-25': 3, '2026-09-26': 2 });
    expect(visitsTotals(merged)).toEqual({ all_time: 6, from: '2026-09-24' });
    expect(mergeVisits(held, {}, '2026-09-25')).toEqual({ '2026-09-24': 1 });
  });
});

/** A memory store whose activity read can be made to fail or answer nothing, and that counts the rows it hands out. */
function recountRig(start: string) {
  const store = memoryStore();
  const clock = fixedClock(start);
  const logger = memoryLogger();
  const reads: { since: string; rows: number }[] = [];
  let mode: 'answer' | 'fail' | 'empty' = 'answer';
  const deps: RecountDeps = {
    visits: store.visits,
    activity: {
      visitorDaysSince: async (since) => {
        if (mode === 'fail') throw Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
        const rows = mode === 'empty' ? [] : await store.activityReader.visitorDaysSince(since);
        reads.push({ since, rows: rows.length });
        return rows;
      },
    },
    changes: store.visitorDayChanges,
    clock,
    logger,
    lateDays: 7,
  };
  const add = async (...rows: VisitorDay[]) => {
    const written = Math.floor(clock.now().getTime() / 1000);
    for (const row of rows) expect(await store.activity.create({ ...row, applied: { [`w${written}`]: written } })).toBe('created');
  };
  const visits = async () => (await readPeopleCount({ visitors: store.visitors, visits: store.visits, clock, source: store.source })).visits;
  return { store, clock, deps, reads, add, visits, setMode: (next: typeof mode) => (mode = next) };
}

describe('the recount', () => {
  it('reads every kept day first, then today each minute, then from the day before the newest day held each hour', async () => {
    const rig = recountRig('2026-10-23T12:00:00.000Z');
    await rig.add(visitorDay('2026-09-13', 'old'), visitorDay('2026-10-22', 'y'), visitorDay('2026-10-23', 't'));

    const first = await recount(rig.deps);
    expect(first).toMatchObject({ ok: true, plan: { read: 'all' }, rows: 3, visits: 3, wrote: true });
    expect((await rig.visits())).toMatchObject({ all_time: 3, from: '2026-09-13' });

    await rig.add(visitorDay('2026-10-23', 'u'), visitorDay('2026-10-23', 'v'));
    rig.clock.advance(MINUTE);
    const minute = await recount(rig.deps);
    expect(minute).toMatchObject({ ok: true, plan: { read: 'today', since: '2026-10-23' }, rows: 3, visits: 5 });
    const visits = await rig.visits();
    expect(visits?.by_day.at(-1)).toEqual({ day: '2026-10-23', visits: 3 });
    expect(visits?.by_day.at(-2)).toEqual({ day: '2026-10-22', visits: 1 });

    rig.clock.advance(FULL_EVERY_MS);
    const hourly = await recount(rig.deps);
    // The day before the newest held (10-22), or the oldest day a late hit may land on (7 days back), whichever is earlier.
    expect(hourly).toMatchObject({ ok: true, plan: { read: 'since-newest', since: '2026-10-16' }, rows: 4, visits: 5 });
  });

  it('reads back to a past day written since the last count, so a hit that arrives days late counts within the minute', async () => {
    const rig = recountRig('2026-10-23T12:00:00.000Z');
    await rig.add(visitorDay('2026-10-10', 'old'), visitorDay('2026-10-23', 't'));
    await recount(rig.deps);
    rig.clock.advance(MINUTE);
    await rig.add(visitorDay('2026-10-18', 'late'));

    expect(await recount(rig.deps)).toMatchObject({ ok: true, plan: { read: 'today', since: '2026-10-18' }, rows: 2, visits: 3 });
    rig.clock.advance(MINUTE);
    expect(await recount(rig.deps)).toMatchObject({ ok: true, plan: { read: 'today', since: '2026-10-23' }, rows: 1, visits: 3 });
  });

  it('counts the day that just ended once more after midnight', async () => {
    const rig = recountRig('2026-10-23T23:59:30.000Z');
    await rig.add(visitorDay('2026-10-23', 'a'));
    await recount(rig.deps);
    await rig.add(visitorDay('2026-10-23', 'b'));
    rig.clock.set('2026-10-24T00:00:30.000Z');

    expect(await recount(rig.deps)).toMatchObject({ ok: true, plan: { read: 'today', since: '2026-10-23' }, visits: 2 });
  });

  it('keeps the held count when a read fails, and waits five minutes before reading again', async () => {
    const rig = recountRig('2026-10-23T12:00:00.000Z');
    await rig.add(visitorDay('2026-10-22', 'a'), visitorDay('2026-10-23', 'b'));
    await recount(rig.deps);
    rig.clock.advance(FULL_EVERY_MS);
    rig.setMode('fail');

    expect(await recount(rig.deps)).toMatchObject({ ok: true, plan: { read: 'since-newest' }, wrote: true, visits: 2 });
    expect((await rig.visits())?.all_time).toBe(2);
    rig.setMode('answer');
    const readsBefore = rig.reads.length;
    rig.clock.advance(RETRY_AFTER_MS - MINUTE);
    expect(await recount(rig.deps)).toMatchObject({ ok: true, plan: { read: 'waiting' }, rows: 0 });
    expect(rig.reads).toHaveLength(readsBefore);
    rig.clock.advance(MINUTE);
    expect(await recount(rig.deps)).toMatchObject({ ok: true, plan: { read: 'since-newest' }, rows: 2, visits: 2 });
  });

  it('keeps the held count when a read comes back empty, and waits five minutes', async () => {
    const rig = recountRig('2026-10-23T12:00:00.000Z');
    await rig.add(visitorDay('2026-10-22', 'a'), visitorDay('2026-10-23', 'b'));
    await recount(rig.deps);
    rig.clock.advance(FULL_EVERY_MS);
    rig.setMode('empty');

    expect(await recount(rig.deps)).toMatchObject({ ok: true, rows: 0, visits: 2 });
    expect((await rig.visits())?.all_time).toBe(2);
    rig.clock.advance(MINUTE);
    expect(await recount(rig.deps)).toMatchObject({ plan: { read: 'waiting' } });
  });

  it('holds no visits before the first person, and counts them at the next minute, without waiting', async () => {
    const rig = recountRig('2026-10-23T12:00:00.000Z');
    expect(await recount(rig.deps)).toMatchObject({ ok: true, plan: { read: 'all' }, rows: 0, wrote: false });
    expect(await rig.visits()).toBeNull();
    await rig.add(visitorDay('2026-10-23', 'scanner', { bots: 1 }));
    rig.clock.advance(MINUTE);
    expect(await recount(rig.deps)).toMatchObject({ ok: true, plan: { read: 'all' }, rows: 1, wrote: true });
    expect(await rig.visits()).toBeNull();
    await rig.add(visitorDay('2026-10-23', 'first'));
    rig.clock.advance(MINUTE);
    expect(await recount(rig.deps)).toMatchObject({ ok: true, plan: { read: 'today' }, visits: 1 });
    expect((await rig.visits())?.from).toBe('2026-10-23');
  });

  it('reads only what a later count needs, not all history: the same rows at 10 and at 100 days kept', async () => {
    const readAfter = async (days: number) => {
      const rig = recountRig('2026-10-23T12:00:00.000Z');
      for (let back = 0; back < days; back += 1) {
        const day = new Date(Date.parse('2026-10-23T00:00:00Z') - back * 86_400_000).toISOString().slice(0, 10);
        await rig.add(visitorDay(day, `a${back}`), visitorDay(day, `b${back}`));
      }
      const first = await recount(rig.deps);
      rig.clock.advance(MINUTE);
      const minute = await recount(rig.deps);
      rig.clock.advance(FULL_EVERY_MS);
      const hourly = await recount(rig.deps);
      return [first, minute, hourly].map((outcome) => (outcome.ok ? outcome.rows : -1));
    };
    const ten = await readAfter(10);
    const hundred = await readAfter(100);
    expect(ten[0]).toBe(20);
    expect(hundred[0]).toBe(200);
    expect(hundred.slice(1)).toEqual(ten.slice(1));
    expect(ten.slice(1)).toEqual([2, 16]);
  });
});
