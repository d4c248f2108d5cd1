import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { readPeopleCount } from '../../shared/read/counting/people-count';
import { fold } from '../../shared/fold/fold';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { BOTS_COUNTED_AGAIN_DAYS } from '../../shared/fold/people';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Store } from '../../shared/core/store';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { foldOnce, keepHits, queuedHit } from '../support/counting';
import { failingAfter, goneDownAfter } from '../integration/keep-helpers';

const NOW = '2026-10-23T16:00:00.000Z';

/** A memory store, a clock, and the figures a reader sees. */
function rig(at = NOW) {
  const store = memoryStore();
  const clock = fixedClock(at);
  const count = () =>
    readPeopleCount({
      visitorsSummary: store.visitorsSummary,
      visits: store.visits,
      foldState: store.foldState,
      clock,
      source: store.source,
    });
  let serial = 0;
  // Message ids of the rig's own, the same in every rig, so two rigs' documents compare.
  const nextId = () => `00000000-0000-4000-8000-${String((serial += 1)).padStart(12, '0')}`;
  return { store, clock, count, keep: (hits: QueuedHit[]) => keepHits(store, clock, hits, nextId()), fold: () => foldOnce(store, clock) };
}

const everything = (store: Store & { documents: { query<T>(where: (doc: T) => boolean): T[] } }) =>
  store.documents
    .query<{ pk: string; id: string; kind: string }>(() => true)
    .filter((doc) => doc.kind !== 'store-clock' && doc.kind !== 'fold-lease')
    .sort((a, b) => (a.pk === b.pk ? (a.id < b.id ? -1 : 1) : a.pk < b.pk ? -1 : 1));

describe('visits folded: one a person a day, from the daily tokens', () => {
  it('counts one person on two days as two, one person through two stores as one, and scanners, self and loopback as none', async () => {
    const r = rig();
    await r.keep([
      queuedHit('2026-10-20T10:00:00.000Z', { person: 'a' }),
      queuedHit('2026-10-21T10:00:00.000Z', { person: 'a' }),
      queuedHit('2026-10-21T10:01:00.000Z', { person: 'a', bot: true }),
      queuedHit('2026-10-21T11:00:00.000Z', { person: 'b', store: 'site' }),
      queuedHit('2026-10-21T11:01:00.000Z', { person: 'b', store: 'shop' }),
      queuedHit('2026-10-21T12:00:00.000Z', { person: 's', bot: true }),
      queuedHit('2026-10-21T12:00:00.000Z', { person: null, self: true, token: 't' }),
      queuedHit('2026-10-22T09:00:00.000Z', { person: null, self: true, network: '127.0.0.x', token: 'l1' }),
    ]);
    expect((await r.count()).visits).toBeNull();
    await r.fold();
    const visits = (await r.count()).visits!;
    expect(visits).toMatchObject({ all_time: 3, from: '2026-10-20' });
    expect(visits.by_day.filter((day) => day.visits > 0)).toEqual([
      { day: '2026-10-20', visits: 1 },
      { day: '2026-10-21', visits: 2 },
    ]);
  });

  it('takes the stronger kind across a token’s stores: a bot read on one store and a person on another is one visit; the site’s own on one is none', async () => {
    const r = rig();
    await r.keep([queuedHit('2026-10-23T10:00:00.000Z', { person: 'm', token: 'm', bot: true, store: 'site' })]);
    await r.fold();
    expect((await r.count()).visits).toBeNull();
    await r.keep([queuedHit('2026-10-23T10:05:00.000Z', { person: 'm', token: 'm', store: 'shop' })]);
    await r.fold();
    expect((await r.count()).visits?.all_time).toBe(1);
    await r.keep([queuedHit('2026-10-23T10:06:00.000Z', { person: null, token: 'm', self: true, store: 'admin' })]);
    await r.fold();
    expect((await r.count()).visits).toBeNull();
    const rows = await r.store.activityDays.pageOn('2026-10-23', null, 100);
    expect(rows.map((row) => [row.store, row.visit])).toEqual([
      ['site', false],
      ['shop', false],
      ['admin', false],
    ]);
  });

  it('counts a hit that arrives days late on its own day, and the day that just ended once more after midnight', async () => {
    const r = rig('2026-10-23T23:59:30.000Z');
    await r.keep([queuedHit('2026-10-23T23:59:00.000Z', { person: 'a' })]);
    await r.fold();
    r.clock.set('2026-10-24T00:00:30.000Z');
    await r.keep([queuedHit('2026-10-23T23:59:50.000Z', { person: 'b' }), queuedHit('2026-10-18T10:00:00.000Z', { person: 'late' })]);
    const outcome = await r.fold();
    expect(outcome.days).toEqual(['2026-10-18', '2026-10-23']);
    const count = await r.count();
    expect(count.visits?.by_day.filter((day) => day.visits > 0)).toEqual([
      { day: '2026-10-18', visits: 1 },
      { day: '2026-10-23', visits: 2 },
    ]);
    expect(count.people_new_by_day?.filter((day) => day.people > 0)).toEqual([
      { day: '2026-10-18', people: 1 },
      { day: '2026-10-23', people: 2 },
    ]);
  });
});

describe('people folded from the visitor records', () => {
  it('counts a person again on an earlier day when a late sighting moves them there, and leaves the later day', async () => {
    const r = rig();
    await r.keep([queuedHit('2026-10-23T10:00:00.000Z', { person: 'a' }), queuedHit('2026-10-23T10:00:00.000Z', { person: 'b' })]);
    await r.fold();
    await r.keep([queuedHit('2026-10-21T10:00:00.000Z', { person: 'a' })]);
    await r.fold();
    const count = await r.count();
    expect(count).toMatchObject({ people_all_time: 2, counted_from: '2026-10-21', people_new_today: 1 });
    expect(count.people_new_by_day?.filter((day) => day.people > 0)).toEqual([
      { day: '2026-10-21', people: 1 },
      { day: '2026-10-23', people: 1 },
    ]);
  });

  it('moves a scanner who reads as a person, keeps the scanners left out after their records expire, and the first person’s day', async () => {
    const r = rig();
    await r.keep([
      queuedHit('2026-10-22T10:00:00.000Z', { person: 's', bot: true }),
      queuedHit('2026-10-22T10:00:00.000Z', { person: 'c', bot: true }),
    ]);
    await r.fold();
    expect(await r.count()).toMatchObject({ people_all_time: 0, scanners_left_out: 2, counted_from: null });
    await r.keep([queuedHit('2026-10-23T10:00:00.000Z', { person: 's' })]);
    await r.fold();
    expect(await r.count()).toMatchObject({ people_all_time: 1, scanners_left_out: 1, counted_from: '2026-10-23' });
    // The crawler's record expires (its ttl, which the memory store does not run); a later fold of that day keeps it counted
    // only while the day is recent enough for every record to be there, so the day is moved past that.
    r.store.documents.delete('visitors', queuedHit('2026-10-22T10:00:00.000Z', { person: 'c' }).person!);
    r.clock.advance((BOTS_COUNTED_AGAIN_DAYS + 1) * 86_400_000);
    await r.keep([queuedHit(r.clock.now().toISOString(), { person: 's', bot: true })]);
    await r.fold();
    expect(await r.count()).toMatchObject({ people_all_time: 1, scanners_left_out: 1, counted_from: '2026-10-23' });
  });

  it('costs what changed since the last run, not all history: the same store calls at 10 and at 200 people kept', async () => {
    const callsOfALaterRun = async (people: number) => {
      const r = rig();
      await r.keep(Array.from({ length: people }, (_, n) => queuedHit('2026-10-22T10:00:00.000Z', { person: `p${n}` })));
      await r.fold();
      r.clock.advance(60_000);
      await r.keep([queuedHit('2026-10-23T10:00:00.000Z', { person: 'new' })]);
      const before = r.store.stats();
      await r.fold();
      const after = r.store.stats();
      return { reads: after.reads - before.reads, writes: after.writes - before.writes, queries: after.queries - before.queries };
    };
    const ten = await callsOfALaterRun(10);
    expect(await callsOfALaterRun(200)).toEqual(ten);
  });
});

describe('what a run reads and writes', () => {
  /** The rig with its day rollup reads and its month, year and cell calls noted by document. */
  function watched() {
    const r = rig();
    const calls: string[] = [];
    const { rollups, periods } = r.store;
    r.store.rollups = { ...rollups, read: (day) => (calls.push(`read rollup ${day}`), rollups.read(day)) };
    r.store.periods = {
      read: (pk, id) => (calls.push(`read ${pk} ${id}`), periods.read(pk, id)),
      create: (doc) => (calls.push(`write ${doc.pk} ${doc.id}`), periods.create(doc)),
      replace: (doc, etag) => (calls.push(`write ${doc.pk} ${doc.id}`), periods.replace(doc, etag)),
    };
    return { ...r, calls };
  }

  it('moves each month and year once a round for all its days, and creates a new day’s cells without reading them', async () => {
    const r = watched();
    const days = ['2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23'];
    await r.keep(days.map((day, n) => queuedHit(`${day}T10:00:00.000Z`, { person: `p${n}`, path: '/same' })));
    await r.fold();
    const writes = r.calls.filter((call) => call.startsWith('write'));
    const longer = writes.filter((call) => / (month|year):/.test(call));
    expect(longer.length).toBeGreaterThan(2);
    expect(new Set(longer).size).toBe(longer.length);
    // The site's month and year, and the page's, each took all four days.
    const month = (await r.store.periods.read('months', 'month:2026-10'))!.doc;
    expect(Object.keys(month.folded_days).sort()).toEqual(days);
    expect(writes.filter((call) => / day:/.test(call)).length).toBeGreaterThanOrEqual(days.length);
    expect(r.calls.filter((call) => call.startsWith('read') && / day:/.test(call))).toEqual([]);
  });

  it('reads no day rollup for a day with nothing new, and a day’s cells once it has some', async () => {
    const r = watched();
    await r.keep([queuedHit('2026-10-22T10:00:00.000Z', { person: 'a' })]);
    await r.fold();
    r.clock.advance(60_000);
    r.calls.length = 0;
    await r.fold();
    expect(r.calls).toEqual([]);
    await r.keep([queuedHit('2026-10-22T11:00:00.000Z', { person: 'b' })]);
    r.clock.advance(60_000);
    await r.fold();
    // Of the near days, only the one with a new fact (its visits read it too).
    expect(new Set(r.calls.filter((call) => call.startsWith('read rollup')))).toEqual(new Set(['read rollup 2026-10-22']));
    expect(r.calls.filter((call) => call.startsWith('read') && / day:2026-10-22$/.test(call)).length).toBeGreaterThan(0);
  });
});

describe('subject scans folded', () => {
  const scan = (person: string | null, at: string, more: Partial<QueuedHit> = {}) =>
    queuedHit(at, { person, subject: 'tree-1', ...(person === null ? { self: true } : {}), ...more });

  it('judges each scan once: the refresh window, the interval, the first counted scan a unique visitor; scanners and self apart', async () => {
    const store = memoryStore();
    const clock = fixedClock(NOW);
    const rules = scanRules(10, 60);
    await keepHits(store, clock, [
      scan('a', '2026-10-23T10:00:00.000Z'),
      scan('a', '2026-10-23T10:00:05.000Z'),
      scan('a', '2026-10-23T10:00:30.000Z'),
    ]);
    await keepHits(store, clock, [
      scan('a', '2026-10-23T10:02:00.000Z'),
      scan('b', '2026-10-23T10:02:00.000Z'),
      scan('s', '2026-10-23T10:03:00.000Z', { bot: true }),
      scan(null, '2026-10-23T10:04:00.000Z'),
    ]);
    await foldOnce(store, clock, rules);
    await foldOnce(store, clock, rules);
    const summary = (await store.subjects.summaries.read('tree-1'))!.doc;
    expect(summary).toMatchObject({
      scans: 3,
      unique: 2,
      repeat: 1,
      scanners: 1,
      self: 1,
      first_scan: '2026-10-23T10:00:00.000Z',
      last_scan: '2026-10-23T10:02:00.000Z',
    });
    expect(summary.by_day).toEqual({ '2026-10-23': { scans: 3, new: 2 } });
  });
});

describe('the fold has exactly-once effect', () => {
  const before = [
    queuedHit('2026-10-22T09:00:00.000Z', { person: 'ann' }),
    queuedHit('2026-10-22T09:10:00.000Z', { person: 'sam', bot: true, path: '/wp-login.php' }),
  ];
  const under = [
    queuedHit('2026-10-23T10:00:00.000Z', { person: 'ann', subject: 'tree-1' }),
    queuedHit('2026-10-23T11:00:00.000Z', { person: 'ann', store: 'shop', subject: 'tree-1' }),
    queuedHit('2026-10-23T10:05:00.000Z', { person: 'sam' }),
    queuedHit('2026-10-23T10:06:00.000Z', { person: 'new', subject: 'tree-2' }),
    queuedHit('2026-10-23T10:07:00.000Z', { person: 'bot', bot: true, path: '/.env', subject: 'tree-2' }),
    queuedHit('2026-10-22T10:08:00.000Z', { person: null, self: true, path: '/status' }),
  ];

  it('failing right after each of its writes in turn, then run again, leaves what a clean run leaves', async () => {
    const clean = rig();
    await clean.keep(before);
    await clean.fold();
    await clean.keep(under);
    const counting = failingAfter(clean.store, Number.POSITIVE_INFINITY);
    expect((await fold({ store: counting, clock: clean.clock, rules: scanRules(10, 60), lateDays: 7 })).ok).toBe(true);
    const writes = counting.writes();
    expect(writes).toBeGreaterThanOrEqual(12);
    const expected = everything(clean.store);

    let triedAgain = 0;
    for (let failAfter = 1; failAfter <= writes; failAfter += 1) {
      const run = rig();
      await run.keep(before);
      await run.fold();
      await run.keep(under);
      const failed = await fold({ store: failingAfter(run.store, failAfter), clock: run.clock, rules: scanRules(10, 60), lateDays: 7 });
      // A write whose answer was lost is tried again within the run (the part, the day or the round, from its watermarks):
      // the run then finishes, or it says it did not, naming the failure. Its last write is the lease's release.
      if (failAfter === writes) expect(failed).toMatchObject({ ok: true, behind: null });
      else if (failed.ok && failed.behind === null) triedAgain += 1;
      else
        expect(failed.ok ? failed.behind : failed.reason, `failing after write ${failAfter}`).toContain(
          `injected failure after write ${failAfter}`,
        );
      // A run that died with the lease leaves it to lapse: the next run comes once it has.
      run.clock.advance(TIMER_FOLD_BUDGET.leaseSeconds * 1000);
      await run.fold();
      // The watermarks differ from the clean run's (they are the store's own), so compare the documents without them.
      const unmarked = (docs: ReturnType<typeof everything>) =>
        JSON.parse(
          JSON.stringify(docs, (key, value: unknown) =>
            ['folded_to', 'folded_days', 'days', 'records', 'records_at', 'swept_at'].includes(key) ? undefined : value,
          ),
        );
      expect(unmarked(everything(run.store)), `failing after write ${failAfter}`).toEqual(unmarked(expected));
    }
    // Most lost answers are within a part the run takes up again; the rest (the lease, the state's last write) end it.
    expect(triedAgain).toBeGreaterThan(writes / 2);
  });
});

describe('a busy minute folded', () => {
  it('reads the documents of many daily tokens in several queries and counts every one', async () => {
    const r = rig();
    await r.keep(Array.from({ length: 600 }, (_, n) => queuedHit('2026-10-23T10:00:00.000Z', { person: `p${n}` })));
    const touched = r.store.activity.touched;
    const asked: number[] = [];
    r.store.activity.touched = (day, tokens, hourIds) => {
      asked.push(tokens.length);
      return touched(day, tokens, hourIds);
    };
    await r.fold();
    expect(asked).toEqual([256, 256, 88]);
    expect(await r.count()).toMatchObject({ people_all_time: 600, visits: { all_time: 600 } });
  });
});

describe('a known visitor on a new day', () => {
  it('changes no count, so the fold counts no day again for them: one aggregate query per changed day only', async () => {
    const r = rig();
    await r.keep(
      Array.from({ length: 20 }, (_, n) => queuedHit(`2026-10-${String(1 + n).padStart(2, '0')}T10:00:00.000Z`, { person: `p${n}` })),
    );
    r.clock.advance(3_600_000);
    await r.fold();
    r.clock.advance(3_600_000);
    const counted: string[] = [];
    const countsOn = r.store.recordCounts.countsOn;
    r.store.recordCounts.countsOn = (day) => {
      counted.push(day);
      return countsOn(day);
    };
    // Every known visitor again today, and one new one.
    await r.keep([
      ...Array.from({ length: 20 }, (_, n) => queuedHit('2026-10-23T19:00:00.000Z', { person: `p${n}` })),
      queuedHit('2026-10-23T19:00:00.000Z', { person: 'new' }),
    ]);
    await r.fold();
    expect(counted).toEqual(['2026-10-23']);
    expect(await r.count()).toMatchObject({ people_all_time: 21, people_new_today: 1 });
  });
});

describe('one fold at a time', () => {
  it('of two folds started together, exactly one runs, a hundred times over', async () => {
    for (let round = 0; round < 100; round += 1) {
      const r = rig();
      await r.keep([queuedHit('2026-10-23T10:00:00.000Z', { person: `p${round}` })]);
      const deps = { store: r.store, clock: r.clock, rules: scanRules(10, 60), lateDays: 7 };
      const outcomes = await Promise.all([fold(deps), fold(deps)]);
      expect(
        outcomes.filter((outcome) => outcome.ok),
        `round ${round}`,
      ).toHaveLength(1);
      expect(outcomes.find((outcome) => !outcome.ok)).toMatchObject({ ok: false, busy: true });
      expect((await r.count()).people_all_time).toBe(1);
    }
  });
});

describe('a backlog folded in slices', () => {
  const slices = { ...TIMER_FOLD_BUDGET, factsASlice: 3, recordsASlice: 4, slicesARun: 5 };

  it('moves the count forward on every run, each run reading a bounded slice, and ends exact', async () => {
    const r = rig();
    // A day's people are counted again whole from the records, so the backlog is spread over eight days.
    for (let n = 0; n < 40; n += 1)
      await r.keep([queuedHit(`2026-10-${16 + Math.floor(n / 5)}T10:${String(n).padStart(2, '0')}:00.000Z`, { person: `p${n}` })]);
    const deps = { store: r.store, clock: r.clock, rules: scanRules(10, 60), lateDays: 7, budget: slices };
    const counts: number[] = [];
    for (let run = 0; run < 20; run += 1) {
      const outcome = await fold(deps);
      r.clock.advance(60_000);
      counts.push((await r.count()).people_all_time ?? -1);
      if (outcome.ok && outcome.behind === null) break;
      expect(outcome).toMatchObject({ ok: true, behind: expect.stringContaining('more to fold') });
    }
    expect(counts.at(-1)).toBe(40);
    expect(counts.length).toBeGreaterThan(3);
    // Every run moved the count forward until it was whole (a run's slices are few, the backlog long); the runs after
    // it folded the rest of the activity.
    const whole = counts.indexOf(40);
    expect(whole).toBeGreaterThan(1);
    for (let run = 1; run <= whole; run += 1) expect(counts[run]!).toBeGreaterThan(counts[run - 1]!);
    expect(counts[0]!).toBeGreaterThan(0);
  });

  it('killed after each write of a run of many slices, then run again, leaves what a clean run leaves', async () => {
    const hits = Array.from({ length: 12 }, (_, n) =>
      queuedHit(`2026-10-23T10:${String(n).padStart(2, '0')}:00.000Z`, {
        person: `p${n % 7}`,
        token: `t${n % 5}`,
        subject: n % 3 === 0 ? 'tree-1' : null,
      }),
    );
    const deps = (store: Store, clock: ReturnType<typeof fixedClock>) => ({
      store,
      clock,
      rules: scanRules(10, 60),
      lateDays: 7,
      budget: slices,
    });
    const keepAll = async (r: ReturnType<typeof rig>) => {
      for (const hit of hits) await r.keep([hit]);
    };
    const drain = async (r: ReturnType<typeof rig>) => {
      for (let run = 0; run < 30; run += 1) {
        const outcome = await fold(deps(r.store, r.clock));
        r.clock.advance(TIMER_FOLD_BUDGET.leaseSeconds * 1000);
        if (outcome.ok && outcome.behind === null) return;
      }
      throw new Error('the fold never caught up');
    };
    const clean = rig();
    await keepAll(clean);
    const counting = failingAfter(clean.store, Number.POSITIVE_INFINITY);
    await fold(deps(counting, clean.clock));
    const writes = counting.writes();
    clean.clock.advance(TIMER_FOLD_BUDGET.leaseSeconds * 1000);
    await drain(clean);
    const unmarked = (docs: ReturnType<typeof everything>) =>
      JSON.parse(
        JSON.stringify(docs, (key, value: unknown) =>
          ['folded_to', 'folded_days', 'days', 'records', 'records_at', 'swept_at', 'build', 'behind'].includes(key) ? undefined : value,
        ),
      );
    const expected = unmarked(everything(clean.store));
    expect(writes).toBeGreaterThan(10);
    for (let failAfter = 1; failAfter <= writes; failAfter += 1) {
      const run = rig();
      await keepAll(run);
      await fold(deps(failingAfter(run.store, failAfter), run.clock));
      run.clock.advance(TIMER_FOLD_BUDGET.leaseSeconds * 1000);
      await drain(run);
      expect(unmarked(everything(run.store)), `killed after write ${failAfter}`).toEqual(expected);
    }
  });
});

describe('the count before the first run has finished is not a zero', () => {
  it('says not counted yet after a first run the store went down in at any write, until one finishes', async () => {
    const people = [queuedHit('2026-10-23T10:00:00.000Z', { person: 'a' }), queuedHit('2026-10-23T11:00:00.000Z', { person: 'b' })];
    const clean = rig();
    await clean.keep(people);
    const counting = failingAfter(clean.store, Number.POSITIVE_INFINITY);
    expect((await fold({ store: counting, clock: clean.clock, rules: scanRules(10, 60), lateDays: 7 })).ok).toBe(true);
    const writes = counting.writes();
    expect(await clean.count()).toMatchObject({ people_all_time: 2, behind_since: null });

    let unfinished = 0;
    for (let failAfter = 1; failAfter < writes; failAfter += 1) {
      const run = rig();
      await run.keep(people);
      await fold({ store: goneDownAfter(run.store, failAfter), clock: run.clock, rules: scanRules(10, 60), lateDays: 7 });
      const count = await run.count();
      // A run that died at its lease wrote no state: the timer has, in effect, not run yet.
      if ((await run.store.foldState.read()) === null) continue;
      // Once the first run has written its state, a count is either the true one or none at all, never a zero.
      expect([2, null], `failing after write ${failAfter}`).toContain(count.people_all_time);
      if (count.people_all_time === null) unfinished += 1;
    }
    expect(unfinished).toBeGreaterThan(0);
  });

  it('is a true zero once a run has finished with nobody to count', async () => {
    const r = rig();
    await r.keep([queuedHit('2026-10-23T10:00:00.000Z', { person: 's', bot: true })]);
    await r.fold();
    expect(await r.count()).toMatchObject({ people_all_time: 0, scanners_left_out: 1, behind_since: null });
  });
});
