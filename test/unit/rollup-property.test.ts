import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { TIMER_FOLD_BUDGET, type FoldBudget } from '../../shared/fold/budget';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import { mergeSketches } from '../../shared/core/sketch';
import type { DayRollup } from '../../shared/core/store/rollups';
import type { VisitorDay } from '../../shared/core/store/activity';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { queuedHit } from '../support/counting';
import { keptAndFolded, recountDay } from '../support/rollups';

// The day rollups move by deltas only; whatever the traffic and whatever fails, each must equal a recount of its day
// from its visitor-days, and the people of a period must be the distinct people the traffic had, within the error.

const DAYS = ['2026-10-19', '2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23'];
const NOW = '2026-10-23T18:00:00.000Z';
const PATHS = ['/', '/about', '/about/', '/resume.pdf', '/pricing', '/wp-login.php'];
const SOURCES = [null, 'www.linkedin.com', 'github.com', 'www.google.com', 'news.example.org'];

/** One random hit: a person (some behind one address, some on two stores), a bot now and then, the site's own reads. */
const hitArb = fc
  .record({
    day: fc.integer({ min: 0, max: DAYS.length - 1 }),
    minute: fc.integer({ min: 0, max: 1_000 }),
    person: fc.integer({ min: 0, max: 14 }),
    address: fc.integer({ min: 0, max: 9 }),
    store: fc.constantFrom('site', 'shop'),
    bot: fc.boolean(),
    self: fc.integer({ min: 0, max: 15 }),
    loopback: fc.integer({ min: 0, max: 20 }),
    path: fc.constantFrom(...PATHS),
    source: fc.constantFrom(...SOURCES),
    pageLoad: fc.boolean(),
  })
  .map((h): QueuedHit => {
    const at = new Date(Date.parse(`${DAYS[h.day]}T00:00:00.000Z`) + h.minute * 60_000).toISOString();
    const self = h.self === 0 || h.loopback === 0;
    return queuedHit(at, {
      person: self ? null : `person-${h.person}`,
      token: h.loopback === 0 ? `loopback-${h.address % 2}|${DAYS[h.day]}` : `address-${h.address}|${DAYS[h.day]}`,
      network: h.loopback === 0 ? '127.0.0.x' : `198.51.100.x`,
      store: h.store,
      bot: h.bot && !self,
      self,
      path: h.path,
      source: h.pageLoad ? h.source : null,
      page_load: h.pageLoad,
    });
  });

/** The traffic: messages kept in turn, some delivered twice, and after each a fold that may die after one of its writes. */
const trafficArb = fc.array(
  fc.record({ hits: fc.array(hitArb, { minLength: 1, maxLength: 6 }), twice: fc.boolean(), failAfter: fc.integer({ min: 0, max: 12 }) }),
  { minLength: 1, maxLength: 12 },
);

const SMALL: FoldBudget = { ...TIMER_FOLD_BUDGET, factsASlice: 2, recordsASlice: 3, buildPage: 2 };

const unmarked = (rollup: DayRollup | undefined) => {
  if (rollup === undefined) return undefined;
  const { folded_to: _folded, building: _building, people_sketch, ...rest } = rollup;
  return { ...rest, people_sketch: mergeSketches(people_sketch) };
};

describe('a day rollup always equals a recount of its day', { timeout: 240_000 }, () => {
  it('after random traffic, duplicate deliveries, late hits and folds dying after any write, in small slices', async () => {
    await fc.assert(
      fc.asyncProperty(trafficArb, async (traffic) => {
        const store = memoryStore();
        const clock = fixedClock(NOW);
        const deps = { store, clock, rules: scanRules(10, 60), lateDays: 7, budget: SMALL };
        await keptAndFolded(traffic, deps);
        const rows = store.documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day');
        const rollups = await store.rollupReader.onDays(DAYS);
        for (const day of DAYS) {
          const truth = recountDay(day, rows);
          const kept = rollups.get(day);
          if (rows.some((row) => row.day === day)) expect(unmarked(kept), day).toEqual(unmarked(truth));
          else expect(kept?.visitor_days.total ?? 0, day).toBe(0);
          expect(kept?.building ?? null).toBeNull();
        }
      }),
      { numRuns: 60, seed: 20261201 },
    );
  });
});
