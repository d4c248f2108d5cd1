import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { readPeriods, type PeriodRead } from '../../shared/read/activity/window';
import { periodOf } from '../../shared/read/activity/period';
import { funnelStepsSetting } from '../../shared/core/funnel';
import { goalsSetting } from '../../shared/core/events/events';
import { TIMER_FOLD_BUDGET, type FoldBudget } from '../../shared/fold/budget';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import { addCounts, capped, emptyCounts, emptyRollup, moved, returningOfDocs, type RollupRules } from '../../shared/core/rollup/day-rollup';
import { type DayRollup } from '../../shared/core/store/rollups';
import { cellPartition, matchesAll, valuesOf, type Filter } from '../../shared/core/rollup/filters';
import { DIMENSIONS } from '../../shared/core/dimensions';
import { PERIOD_TOP } from '../../shared/core/rollup/periods';
import { MONTHS_PK, type PeriodRollup } from '../../shared/core/store/periods';
import { estimate, mergeSketches } from '../../shared/core/sketch';
import type { VisitorDay } from '../../shared/core/store/activity';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { queuedHit } from '../support/counting';
import { keptAndFolded } from '../support/rollups';

// Filter cells and month and year rollups move by deltas only; whatever the traffic and whatever fails, a filtered read
// must equal a recount of the visitor-days that match its filters, and a month or a year the sum of its days.

const DAYS = ['2025-12-29', '2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02', '2026-01-03'];
const NOW = '2026-01-03T20:00:00.000Z';
const PATHS = ['/', '/pricing', '/about', '/resume.pdf', '/wp-login.php'];
const SOURCES = [null, 'www.linkedin.com', 'github.com', 'www.google.com', 'news.ycombinator.com'];
const COUNTRIES = ['US', 'DE', 'FR', 'XX'];
const BROWSERS = ['chrome', 'firefox', 'safari'];
const SYSTEMS = ['windows', 'ios', 'linux'];
const DEVICES = ['desktop', 'mobile'];
const CAMPAIGNS = [null, { source: 'news', medium: 'email', campaign: 'autumn' }, { source: 'x', medium: null, campaign: null }];
const EVENTS = [undefined, 'signup', 'download'];
const RULES: RollupRules = {
  steps: funnelStepsSetting.parse(undefined),
  goals: goalsSetting.parse('signup=event:signup|pricing=path:/pricing'),
};

/** One random hit: a person behind one of a few addresses, on one of two stores, a bot or the site now and then. */
const hitArb = fc
  .record({
    day: fc.integer({ min: 0, max: DAYS.length - 1 }),
    minute: fc.integer({ min: 0, max: 1_000 }),
    person: fc.integer({ min: 0, max: 11 }),
    store: fc.constantFrom('site', 'shop'),
    bot: fc.integer({ min: 0, max: 9 }),
    self: fc.integer({ min: 0, max: 15 }),
    path: fc.constantFrom(...PATHS),
    source: fc.constantFrom(...SOURCES),
    pageLoad: fc.boolean(),
    campaign: fc.constantFrom(...CAMPAIGNS),
    event: fc.constantFrom(...EVENTS),
    browser: fc.constantFrom(...BROWSERS),
  })
  .map((h): QueuedHit => {
    const day = DAYS[h.day]!;
    const at = new Date(Date.parse(`${day}T00:00:00.000Z`) + h.minute * 60_000).toISOString();
    const address = h.person % 7;
    const self = h.self === 0;
    const event = h.pageLoad ? undefined : h.event;
    return {
      ...queuedHit(at, {
        person: self ? null : `person-${h.person}`,
        token: `address-${address}|${day}`,
        store: h.store,
        bot: h.bot === 0 && !self,
        self,
        path: h.path,
        source: h.pageLoad ? h.source : null,
        page_load: h.pageLoad && event === undefined,
      }),
      country: COUNTRIES[address % COUNTRIES.length]!,
      browser: h.browser,
      system: SYSTEMS[h.person % SYSTEMS.length]!,
      device: DEVICES[h.person % DEVICES.length]!,
      ...(h.pageLoad && h.campaign !== null ? { campaign: h.campaign } : {}),
      ...(event === undefined ? {} : { event }),
    };
  });

const trafficArb = fc.array(
  fc.record({ hits: fc.array(hitArb, { minLength: 1, maxLength: 8 }), twice: fc.boolean(), failAfter: fc.integer({ min: 0, max: 30 }) }),
  { minLength: 1, maxLength: 10 },
);

const SMALL: FoldBudget = { ...TIMER_FOLD_BUDGET, factsASlice: 2, recordsASlice: 3, buildPage: 2 };

/** Every day from a first day to the last of the traffic. */
const daysFrom = (first: string) => {
  const count = (Date.parse(`${DAYS.at(-1)}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000 + 1;
  return Array.from({ length: count }, (_, i) => new Date(Date.parse(`${first}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
};
/** Windows that hold the whole of December 2025 (read from its month rollups) or of 2025 (from its year rollups). */
const DECEMBER = daysFrom('2025-12-01');
const YEAR = daysFrom('2025-01-01');

/** A window of consecutive days of the traffic's, or one that holds a whole month or a whole year. */
const windowArb = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: DAYS.length - 1 }), fc.integer({ min: 0, max: DAYS.length - 1 }))
    .map(([a, b]) => DAYS.slice(Math.min(a, b), Math.max(a, b) + 1)),
  fc.tuple(fc.constantFrom(DECEMBER, YEAR), fc.integer({ min: 0, max: 3 })).map(([long, cut]) => long.slice(0, long.length - cut)),
);

/** The visitor-days of a period matching the filters, recounted as day rollups. */
function truthOf(rows: readonly VisitorDay[], days: readonly string[], filters: readonly Filter[]): DayRollup[] {
  return days.map((day) => {
    const tokens = new Map<string, VisitorDay[]>();
    for (const row of rows.filter((one) => one.day === day)) tokens.set(row.token, [...(tokens.get(row.token) ?? []), row]);
    // Unfiltered, a day counts every kind's visitor-days (scanners and the site's own too); filtered, people's only.
    const matching = [...tokens.values()].filter((docs) => matchesAll(docs, filters, RULES, filters.length === 0));
    const rollup = moved(
      emptyRollup(day, null),
      matching.map((after) => ({ before: [], after })),
      RULES,
    );
    // Its people: a person's request on a matching visitor-day of any kind.
    const people = [...tokens.values()].filter((docs) => matchesAll(docs, filters, RULES, true)).flat();
    return {
      ...rollup,
      people_sketch: mergeSketches(...people.map((doc) => doc.people_sketch)),
      returning_sketch: mergeSketches(...returningOfDocs(people)),
    };
  });
}

/** Counts as a read sums them: every field but the sketch, which is compared by its estimate. */
const figures = (parts: Parameters<typeof periodOf>[0]) => {
  const { people, steps, goals, new_people: _new, ...counts } = periodOf(parts, RULES);
  // A step or goal no day names reads as 0 whether the period has days or none.
  const reached = (map: Record<string, number>) => Object.fromEntries(Object.entries(map).filter(([, count]) => count !== 0));
  return { counts, steps: reached(steps), goals: reached(goals), people: people.estimate };
};

/** The filters a property run asks: none, or 1 to 3 values the traffic holds (or a value none holds), some negated. */
function filtersArb(rows: readonly VisitorDay[]) {
  const held: Filter[] = [];
  const tokens = new Map<string, VisitorDay[]>();
  for (const row of rows) tokens.set(`${row.day}|${row.token}`, [...(tokens.get(`${row.day}|${row.token}`) ?? []), row]);
  for (const docs of tokens.values())
    for (const [dimension, values] of valuesOf(docs, RULES)) for (const value of values) held.push({ dimension, value, negated: false });
  const pool = [...held, { dimension: 'page' as const, value: '/nowhere', negated: false }];
  return fc.array(
    fc.tuple(fc.constantFrom(...pool), fc.boolean()).map(([filter, negated]) => ({ ...filter, negated })),
    { minLength: 0, maxLength: 3 },
  );
}

// Many random runs, each folded many times over: seconds alone, longer on a machine busy with other suites.
describe('filtered reads and month and year rollups always equal a recount of the matching visitor-days', { timeout: 240_000 }, () => {
  it('after random traffic, duplicate deliveries, late hits and folds dying after any write, for random filters and windows', async () => {
    let checked = 0;
    let years = 0;
    await fc.assert(
      fc.asyncProperty(trafficArb, fc.integer({ min: 0, max: 2 ** 31 }), async (traffic, seed) => {
        const store = memoryStore();
        const clock = fixedClock(NOW);
        const deps = { store, clock, rules: scanRules(10, 60), lateDays: 7, budget: SMALL, steps: RULES.steps, goals: RULES.goals };
        await keptAndFolded(traffic, deps);
        const rows = store.documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day');
        const periods = store.documents.query<PeriodRollup>((doc) => doc.kind === 'period-rollup');
        // Each month and year equals the sum of its days: the site's of its day rollups, a value's of its day cells.
        const dayRollups = await store.rollupReader.onDays(DAYS);
        if (periods.some((doc) => doc.span === 'year' && doc.at === '2025')) years += 1;
        for (const month of periods.filter((doc) => doc.span !== 'day')) {
          const days =
            month.pk === MONTHS_PK ? [...dayRollups.values()] : periods.filter((doc) => doc.pk === month.pk && doc.span === 'day');
          const ofMonth = days.filter((doc) => ('at' in doc ? doc.at : doc.day).startsWith(month.at));
          const sum = emptyCounts();
          for (const day of ofMonth) addCounts(sum, day, 1);
          capped(sum, PERIOD_TOP);
          const {
            id: _i,
            pk: _p,
            kind: _k,
            span: _s,
            at: _a,
            filter: _f,
            people_sketch,
            new_sketch: _n,
            returning_sketch,
            sketch_partial: _sp,
            folded_days: _d,
            by_day: _b,
            imported: _im,
            ...counts
          } = month;
          expect(counts, `${month.pk} ${month.at}`).toEqual(sum);
          expect(estimate(people_sketch)).toBe(estimate(mergeSketches(...ofMonth.map((day) => day.people_sketch))));
          // Its returning people are the union of its days'.
          expect(estimate(returning_sketch)).toBe(estimate(mergeSketches(...ofMonth.map((day) => day.returning_sketch))));
        }
        // Filtered reads over random windows equal the recount of the visitor-days that match.
        const random = fc.sample(fc.tuple(filtersArb(rows), windowArb), { numRuns: 12, seed });
        for (const [filters, days] of random) {
          const read = await readPeriods(store, [days], filters, { month: '0000-00-00', year: '0000-00-00' }, RULES);
          if ('refused' in read) throw new Error(read.refused);
          const [got] = read as [PeriodRead];
          // Without a filter, or with one, a whole December or 2025 is read from its month or year rollup or cell.
          const one = filters.length === 1 && !filters[0]!.negated;
          const pk = one ? cellPartition(filters[0]!.dimension, filters[0]!.value) : MONTHS_PK;
          for (const [span, at, whole] of [
            ['month', '2025-12', DECEMBER],
            ['year', '2025', YEAR],
          ] as const) {
            const kept = periods.some((doc) => doc.pk === pk && doc.span === span && doc.at === at);
            if (days.length === whole.length && days[0] === whole[0] && kept && (one || filters.length === 0))
              expect(got.parts.some((part) => 'span' in part && part.span === span)).toBe(true);
          }
          const truth = truthOf(rows, days, filters);
          const what = JSON.stringify({ filters, days });
          expect(figures(got.parts), what).toEqual(figures(truth));
          for (const day of truth)
            expect(got.byDay.get(day.day)?.visitor_days ?? emptyCounts().visitor_days, what).toEqual(day.visitor_days);
          checked += 1;
        }
        // Every dimension can be asked.
        expect(DIMENSIONS.length).toBe(13);
      }),
      { numRuns: 40, seed: 20261203, endOnFailure: true },
    );
    expect(checked).toBe(40 * 12);
    expect(years).toBeGreaterThan(10);
  });
});
