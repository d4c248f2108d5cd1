import { describe, expect, it } from 'vitest';
import { oneZone } from '../../shared/core/sites/zones';
import { zoneOf } from '../../shared/core/zone';
import { memoryStore } from '../../adapters/memory/store';
import type { Goal } from '../../shared/core/events/events';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Store } from '../../shared/core/store';
import { firstKeptDay } from '../../shared/core/store/first-day';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { fold } from '../../shared/fold/fold';
import { funnelBackMigration, goalBackMigration } from '../../shared/fold/migrations/goal-back';
import type { Funnel } from '../../shared/core/funnel';
import { cardOf } from '../support/card';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { periodReport } from '../../shared/read/activity/report';
import { memoryLogger } from '../../shared/core/ports/logger';
import { keepHits, queuedHit } from '../support/counting';
import { dyingRollups } from '../support/dying';

// A goal added after its days were folded is counted back over the days kept, a day a slice: every day's conversions
// then equal a recount, the months' too, whatever slice the process dies after.

const NOW = '2026-10-23T20:00:00.000Z';
const GOAL: Goal & { back: string } = { name: 'pricing', events: [], paths: ['/pricing/*'], back: 'goal-back:pricing:2026-10-23:test' };
const FUNNEL: Funnel & { back: string; added: string } = {
  name: 'team',
  steps: [
    { name: 'Pricing', pages: ['/pricing/*'], events: [] },
    { name: 'Team', pages: ['/pricing/team'], events: [] },
  ],
  back: 'funnel-back:team:2026-10-23:test',
  added: '2026-10-23',
};
/** Each day: two people on pricing pages (the second on two of them), one elsewhere. */
const DAYS = ['2026-09-28', '2026-09-29', '2026-09-30', '2026-10-01', '2026-10-21', '2026-10-22', '2026-10-23'];

async function kept(): Promise<Store> {
  const store = memoryStore();
  const clock = fixedClock(NOW);
  for (const [n, day] of DAYS.entries()) {
    const at = `${day}T10:00:00.000Z`;
    await keepHits(store, clock, [
      queuedHit(at, { person: `a${n}`, token: `a${n}`, path: '/pricing/team' }),
      queuedHit(at, { person: `b${n}`, token: `b${n}`, path: '/pricing/solo' }),
      queuedHit(at, { person: `b${n}`, token: `b${n}`, path: '/pricing/team' }),
      queuedHit(at, { person: `c${n}`, token: `c${n}`, path: '/about' }),
    ]);
  }
  // Folded with no goal: the days' rollups know nothing of it.
  expect(await fold({ store, clock: fixedClock(NOW), rules: scanRules(10, 60), lateDays: 7, goals: [] })).toMatchObject({ ok: true });
  return store;
}

const deps = (store: Store) => ({
  rollups: store.rollups,
  periods: store.periods,
  pages: store.visitorDayPages,
  firstDay: () => firstKeptDay(store),
  today: NOW.slice(0, 10),
});

/** Every day's and month's conversions of the goal. */
async function counts(store: Store) {
  const days = Object.fromEntries(
    [...(await store.rollupReader.onDays(DAYS)).entries()].map(([day, rollup]) => [day, rollup.goals?.pricing]),
  );
  const months = Object.fromEntries(
    (await store.periodReader.inPartition('months', { day: [], month: ['2026-09', '2026-10'], year: [] })).map((one) => [
      one.at,
      one.goals?.pricing,
    ]),
  );
  return { days, months };
}

const run = (store: Store, slices: number) => {
  let left = slices;
  return runMigrations(store.migrations, [goalBackMigration(GOAL, deps(store))], {
    now: new Date(NOW),
    limit: 100,
    more: async () => left-- > 0,
  });
};

const utcZone = { zone: zoneOf('UTC'), days: () => Promise.resolve(oneZone(zoneOf('UTC'))) };

describe('a goal counted back over the days kept', () => {
  it('sets each day to its recount, newest first a day a slice, and its months by the difference', async () => {
    const store = await kept();
    // The first slice counts today alone; the card says from which day the goal holds.
    expect(await run(store, 1)).toBe(false);
    const card = await periodReport(
      { period: { kind: 'days', days: 30 }, filters: [] },
      { store, clock: fixedClock(NOW), logger: memoryLogger(), funnel: [], goals: [GOAL], ...utcZone },
    );
    expect(card.ok && card.value.goals?.[0]).toMatchObject({ goal: 'pricing', holds_from: '2026-10-23' });
    // Every day from the first kept to today is a slice: 26 in all, then done.
    expect(await run(store, 40)).toBe(true);
    const all = await counts(store);
    expect(all.days).toEqual(Object.fromEntries(DAYS.map((day) => [day, 2])));
    // The months the fold kept take the difference: three days of September, four of October.
    expect(all.months).toEqual({ '2026-09': 6, '2026-10': 8 });
    const after = await periodReport(
      { period: { kind: 'days', days: 30 }, filters: [] },
      { store, clock: fixedClock(NOW), logger: memoryLogger(), funnel: [], goals: [GOAL], ...utcZone },
    );
    expect(after.ok && after.value.goals?.[0]).toMatchObject({ goal: 'pricing', conversions: 14 });
    expect(after.ok && 'holds_from' in after.value.goals![0]!).toBe(false);
  });

  it('adds nothing twice when the process dies after any write and the slice runs again', async () => {
    const clean = await kept();
    await run(clean, 40);
    const truth = await counts(clean);
    for (let dieAfter = 1; dieAfter <= 12; dieAfter += 1) {
      const store = await kept();
      const dying = dyingRollups(store, dieAfter);
      let left = 40;
      await runMigrations(store.migrations, [goalBackMigration(GOAL, deps(dying))], {
        now: new Date(NOW),
        limit: 100,
        more: async () => left-- > 0,
      }).catch(() => undefined);
      await run(store, 40);
      expect(await counts(store), `died after write ${dieAfter}`).toEqual(truth);
    }
  });

  it("writes each closed day's file again under the funnel counted back, so one filter and several read its steps", async () => {
    const store = await kept();
    // The fold writes every closed day's file, with no funnel in it.
    for (let run = 0; run < 6; run += 1) await fold({ store, clock: fixedClock(NOW), rules: scanRules(10, 60), lateDays: 7, goals: [] });
    expect((await store.dayFiles!.written(DAYS)).size).toBe(DAYS.length - 1);
    const rules = { steps: [], goals: [], funnels: [FUNNEL] };
    let left = 40;
    await runMigrations(store.migrations, [funnelBackMigration(FUNNEL, { ...deps(store), files: { dayFiles: store.dayFiles, rules } })], {
      now: new Date(NOW),
      limit: 100,
      more: async () => left-- > 0,
    });
    const card = cardOf(store, fixedClock(NOW), { funnel: [], funnels: [FUNNEL] });
    const filters = `&filter=${encodeURIComponent('page:/pricing/team')}&filter=${encodeURIComponent('!page:/about')}`;
    const { body } = await card(`days=30${filters}`);
    // Two people a day reached both steps, on each of the seven days.
    expect(body.funnels[0].steps.map((step: { visits: number }) => step.visits)).toEqual([14, 14]);
    // One filter's cells were folded before the funnel: the days before it was added are summed whole instead.
    const one = await card(`days=30&filter=${encodeURIComponent('page:/pricing/team')}`);
    expect(one.body.funnels[0].steps.map((step: { visits: number }) => step.visits)).toEqual([14, 14]);
    expect(one.body.rollups.complete).toBe(true);
  });
});
