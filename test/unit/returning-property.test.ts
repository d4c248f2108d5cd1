import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { funnelStepsSetting } from '../../shared/core/funnel';
import { addDays } from '../../shared/core/days';
import { goalsSetting } from '../../shared/core/events/events';
import { TIMER_FOLD_BUDGET, type FoldBudget } from '../../shared/fold/budget';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import { weekOf } from '../../shared/core/store/cohorts';
import type { RollupRules } from '../../shared/core/rollup/day-rollup';
import { matchesAll, type Filter } from '../../shared/core/rollup/filters';
import { estimate, mergeSketches, SKETCH_ERROR } from '../../shared/core/sketch';
import { readPeriods } from '../../shared/read/activity/window';
import { daysFrom } from '../../shared/read/activity/report';
import type { VisitorDay } from '../../shared/core/store/activity';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { cardOf } from '../support/card';
import { firstTouchOf } from '../../shared/read/activity/first-touch';
import { referrerGroup } from '../../shared/core/identity/referrer-groups';
import { bucketOf } from '../../shared/core/events/first-touch';
import { queuedHit } from '../support/counting';
import { keptOverMonths, retentionOf, type MonthsMessage } from '../support/returning';

// New and returning people, the retention cells and the first touches come from the first day each fact carries; so
// whatever the traffic over months and whatever fails, they must equal a recount of who came when.

const FIRST_DAY = '2026-06-01';
const DAYS = 140;
const TODAY = addDays(FIRST_DAY, DAYS - 1);
const PATHS = ['/', '/pricing', '/about'];
const SOURCES = [null, 'www.linkedin.com', 'github.com', 'www.google.com'];
const COUNTRIES = ['DE', 'FR', 'DE'];
const RULES: RollupRules = {
  steps: funnelStepsSetting.parse(undefined),
  goals: goalsSetting.parse('signup=event:signup|pricing=path:/pricing'),
};
const SMALL: FoldBudget = { ...TIMER_FOLD_BUDGET, factsASlice: 2, recordsASlice: 3, buildPage: 2 };

/** One hit of a message: one of a dozen people (two browsers behind some addresses), a bot now and then. */
const hitArb = fc.record({
  minute: fc.integer({ min: 0, max: 600 }),
  person: fc.integer({ min: 0, max: 11 }),
  bot: fc.integer({ min: 0, max: 5 }),
  path: fc.constantFrom(...PATHS),
  source: fc.constantFrom(...SOURCES),
  pageLoad: fc.boolean(),
  signup: fc.integer({ min: 0, max: 6 }),
  store: fc.constantFrom('site', 'shop'),
});

/** A message: its day, its hits, delivered twice or not, and the write its fold dies after (0: none). */
const messageArb = fc.record({
  day: fc.integer({ min: 0, max: DAYS - 1 }),
  hits: fc.array(hitArb, { minLength: 1, maxLength: 6 }),
  twice: fc.boolean(),
  failAfter: fc.integer({ min: 0, max: 20 }),
});

/** Months of traffic in the order it happened: people who come back after gaps of days, weeks or months. */
const trafficArb = fc.array(messageArb, { minLength: 4, maxLength: 24 }).map((messages) =>
  messages
    .sort((a, b) => a.day - b.day)
    .map((message, index): MonthsMessage => {
      const day = addDays(FIRST_DAY, message.day);
      const hits = message.hits.map((h): QueuedHit => {
        // Every minute of the message after the one before, so a day's order is the order kept.
        const at = new Date(Date.parse(`${day}T08:00:00.000Z`) + (index % 50) * 60_000 + h.minute * 1_000).toISOString();
        const signup = h.signup === 0 && !h.pageLoad;
        return {
          // An address is in one country, and some in none known.
          ...(h.person % 5 < 3 ? { country: COUNTRIES[h.person % 5]! } : {}),
          ...queuedHit(at, {
            person: `person-${h.person}`,
            token: `address-${h.person % 5}|${day}`,
            store: h.store,
            bot: h.bot === 0,
            path: h.path,
            source: h.pageLoad ? h.source : null,
            page_load: h.pageLoad && !signup,
          }),
          ...(signup ? { event: 'signup' } : {}),
        };
      });
      return { hits, twice: message.twice, failAfter: message.failAfter };
    }),
);

/** The truth of the traffic: each person's first day (their first people's request) and every day they came as one. */
function truthOf(traffic: readonly MonthsMessage[]) {
  const came: Array<{ person: string; day: string; token: string; hit: QueuedHit }> = [];
  for (const message of traffic)
    for (const hit of message.hits)
      if (hit.person !== null && !hit.bot && !hit.self) came.push({ person: hit.person, day: hit.at.slice(0, 10), token: hit.token, hit });
  const first = new Map<string, string>();
  for (const { person, day } of came) if ((first.get(person) ?? '9999') > day) first.set(person, day);
  return { came, first };
}

/** Each person's first touch: their first message's earliest page load that day (its earliest request when none). */
function touchesOf(traffic: readonly MonthsMessage[], first: ReadonlyMap<string, string>) {
  const touches = new Map<string, string>();
  for (const message of traffic)
    for (const [person, day] of first) {
      if (touches.has(person)) continue;
      const theirs = message.hits
        .filter((hit) => hit.person === person && !hit.bot && hit.at.startsWith(day))
        .sort((a, b) => (a.at < b.at ? -1 : 1));
      const hit = theirs.find((one) => one.page_load) ?? theirs[0];
      if (hit !== undefined) touches.set(person, referrerGroup(hit.page_load ? hit.source : null));
    }
  return touches;
}

/** Each goal's truth: its people and conversions (a person's day) by first touch, and its people by days to convert. */
function goalTruth(
  came: ReadonlyArray<{ person: string; day: string; hit: QueuedHit }>,
  first: ReadonlyMap<string, string>,
  touches: ReadonlyMap<string, string>,
) {
  return RULES.goals.map((goal) => {
    const reached = came.filter(({ hit }) => (hit.event === undefined ? goal.paths.includes(hit.path) : goal.events.includes(hit.event)));
    const people = new Map<string, string>();
    for (const { person, day } of reached) if ((people.get(person) ?? '9999') > day) people.set(person, day);
    const sources: Record<string, { people: number; conversions: number }> = {};
    const buckets: Record<string, number> = {};
    for (const [person, day] of people) {
      const source = touches.get(person)!;
      sources[source] = { people: (sources[source]?.people ?? 0) + 1, conversions: sources[source]?.conversions ?? 0 };
      const bucket = bucketOf({ first: first.get(person)!, at: `${day}T00:00:00.000Z` });
      buckets[bucket] = (buckets[bucket] ?? 0) + 1;
    }
    for (const key of new Set(reached.map(({ person, day }) => `${person}|${day}`))) {
      const source = touches.get(key.split('|')[0]!)!;
      sources[source]!.conversions += 1;
    }
    return { goal: goal.name, sources, buckets };
  });
}

const within = (estimate: number, truth: number) => Math.abs(estimate - truth) <= Math.ceil(SKETCH_ERROR * truth);

/** No filter, each single filter of the card, and a negated one, read from the visitor-days. */
const filtersArb = fc.constantFrom<Filter[]>(
  [],
  [{ dimension: 'page', value: '/pricing', negated: false }],
  [{ dimension: 'source', value: 'linkedin', negated: false }],
  [{ dimension: 'source', value: 'typed', negated: false }],
  [{ dimension: 'country', value: 'DE', negated: false }],
  [{ dimension: 'country', value: 'XX', negated: false }],
  [{ dimension: 'page', value: '/about', negated: true }],
);

const filterQuery = (filters: readonly Filter[]) =>
  filters.map((f) => `&filter=${encodeURIComponent(`${f.negated ? '!' : ''}${f.dimension}:${f.value}`)}`).join('');

describe('new and returning people, retention and first touch equal a recount of who came when', () => {
  it('over months of random people, gaps, browsers, kind changes, duplicates and folds dying after any write', async () => {
    let windows = 0;
    let filteredReads = 0;
    await fc.assert(
      fc.asyncProperty(trafficArb, fc.integer({ min: 0, max: 2 ** 31 }), async (traffic, seed) => {
        const store = memoryStore();
        const clock = fixedClock(`${FIRST_DAY}T00:00:00.000Z`);
        const deps = { store, clock, rules: scanRules(10, 60), lateDays: 7, budget: SMALL, steps: RULES.steps, goals: RULES.goals };
        await keptOverMonths(traffic, deps);
        clock.set(`${TODAY}T23:00:00.000Z`);
        const { came, first } = truthOf(traffic);
        const card = cardOf(store, clock);

        // Random windows, unfiltered and with one filter: returning people are those with a day in the window after
        // their first day, each day's those whose first day is before it, each as the truth.
        const rows = store.documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day');
        const matching = (filters: readonly Filter[], day: string, token: string) =>
          matchesAll(
            rows.filter((row) => row.day === day && row.token === token),
            filters,
            RULES,
            true,
          );
        const state = (await store.foldState.read())?.doc;
        const spansFrom = { month: state?.periods_from ?? '9999-12-31', year: state?.years_from ?? '9999-12-31' };
        const windowsArb = fc.tuple(fc.integer({ min: 0, max: DAYS - 1 }), fc.integer({ min: 0, max: DAYS - 1 }), filtersArb);
        for (const [a, b, filters] of fc.sample(windowsArb, { numRuns: 6, seed })) {
          const [from, to] = [addDays(FIRST_DAY, Math.min(a, b)), addDays(FIRST_DAY, Math.max(a, b))];
          const { body } = await card(`from=${from}&to=${to}${filterQuery(filters)}`);
          const what = JSON.stringify({ from, to, filters });
          const asked = daysFrom(from, to);
          const inWindow = came.filter(
            ({ day, token }) => day >= from && day <= to && (filters.length === 0 || matching(filters, day, token)),
          );
          const people = new Set(inWindow.map(({ person }) => person));
          const fresh = new Set(inWindow.filter(({ person, day }) => first.get(person) === day).map(({ person }) => person));
          const back = new Set(inWindow.filter(({ person, day }) => first.get(person)! < day).map(({ person }) => person));
          expect(within(body.headline.people, people.size), what).toBe(true);
          expect(within(body.headline.people_new, fresh.size), what).toBe(true);
          expect(within(body.headline.returning, back.size), what).toBe(true);
          for (const row of body.by_day ?? []) {
            const ofDay = inWindow.filter(({ day }) => day === row.day);
            const dayNew = new Set(ofDay.filter(({ person, day }) => first.get(person) === day).map(({ person }) => person));
            const dayBack = new Set(ofDay.filter(({ person, day }) => first.get(person)! < day).map(({ person }) => person));
            expect([row.day, row.people_new, row.returning], what).toEqual([row.day, dayNew.size, dayBack.size]);
          }

          // The tile is the union of the bars' sketches, each day's bar its own sketch's estimate, however the period is read.
          const dayByDay = await readPeriods(store, [asked], filters, spansFrom, RULES, false);
          if ('refused' in dayByDay) throw new Error(dayByDay.refused);
          const bars = dayByDay[0]!.days;
          expect(body.headline.returning, what).toBe(estimate(mergeSketches(...[...bars.values()].map((bar) => bar.returning_sketch))));
          for (const row of body.by_day ?? [])
            expect(row.returning, `${what} ${row.day}`).toBe(estimate(bars.get(row.day)?.returning_sketch ?? { sparse: {} }));

          // A filter's returning people never outnumber the site's, over the window or on any day of it.
          if (filters.length > 0) {
            const { body: whole } = await card(`from=${from}&to=${to}`);
            expect(body.headline.returning, what).toBeLessThanOrEqual(whole.headline.returning);
            (body.by_day ?? []).forEach((row: any, index: number) =>
              expect(row.returning, `${what} ${row.day}`).toBeLessThanOrEqual(whole.by_day[index].returning),
            );
          }

          // A one-day period's tile is that day's bar.
          const one = asked[Math.floor((asked.length - 1) / 2)]!;
          const { body: day } = await card(`from=${one}&to=${one}${filterQuery(filters)}`);
          const bar = (body.by_day ?? []).find((row: any) => row.day === one);
          expect(day.headline.returning, `${what} ${one}`).toBe(day.by_day[0].returning);
          if (bar !== undefined) expect(day.headline.returning, `${what} ${one}`).toBe(bar.returning);
          windows += 1;
        }

        // Each goal's people and conversions by first touch, and its people by days to convert, are the truth's.
        const touches = touchesOf(traffic, first);
        for (const truth of goalTruth(came, first, touches)) {
          const got = firstTouchOf((await store.goals.summaries.read(truth.goal))?.doc ?? null);
          const sources = Object.fromEntries(got.sources.map(({ name, people, conversions }) => [name, { people, conversions }]));
          expect(sources, truth.goal).toEqual(truth.sources);
          const buckets = Object.fromEntries(Object.entries(got.days_to_convert).filter(([, count]) => count > 0));
          expect(buckets, truth.goal).toEqual(truth.buckets);
        }

        // Every retention cell is the exact distinct count of the cohort's people who came in that month or week.
        const { body: retention } = await retentionOf(store, clock)('months=6');
        expect(retention.cohorts).toHaveLength(6);
        for (const cohort of retention.cohorts) {
          const members = [...first].filter(([, day]) => day.startsWith(cohort.cohort)).map(([person]) => person);
          expect(within(cohort.people, members.length), cohort.cohort).toBe(true);
          for (const cell of cohort.months) {
            const back = new Set(
              came.filter(({ person, day }) => members.includes(person) && day.startsWith(cell.month)).map(({ person }) => person),
            );
            expect(within(cell.people, back.size), `${cohort.cohort} ${cell.month}`).toBe(true);
          }
        }
        for (const cohort of retention.weeks) {
          const members = [...first].filter(([, day]) => weekOf(day) === cohort.cohort).map(([person]) => person);
          expect(within(cohort.people, members.length), cohort.cohort).toBe(true);
          for (const cell of cohort.weeks) {
            const back = new Set(
              came.filter(({ person, day }) => members.includes(person) && weekOf(day) === cell.week).map(({ person }) => person),
            );
            expect(within(cell.people, back.size), `${cohort.cohort} ${cell.week}`).toBe(true);
          }
        }

        // With one filter, a cohort is all its people, and each month's cell counts those of them who came then on a
        // visitor-day holding the filter's value.
        const retentionFiltersArb = fc.constantFrom<Filter>(
          { dimension: 'country', value: 'DE', negated: false },
          { dimension: 'country', value: 'XX', negated: false },
          { dimension: 'source', value: 'linkedin', negated: false },
          { dimension: 'source', value: 'typed', negated: false },
          { dimension: 'page', value: '/pricing', negated: false },
          { dimension: 'goal', value: 'signup', negated: false },
        );
        for (const filter of fc.sample(retentionFiltersArb, { numRuns: 3, seed })) {
          const { body: filtered } = await retentionOf(
            store,
            clock,
          )(`months=6&filter=${encodeURIComponent(`${filter.dimension}:${filter.value}`)}`);
          const held = came.filter(({ day, token }) => matching([filter], day, token));
          const cells = [
            ...filtered.cohorts.map((row: any) => ({
              row,
              of: (day: string) => day.slice(0, 7),
              later: row.months.map((cell: any) => [cell.month, cell]),
            })),
          ];
          // Week cohorts are kept for the whole site only.
          expect(filtered.weeks).toBeNull();
          for (const { row, of, later } of cells) {
            const members = new Set([...first].filter(([, day]) => of(day) === row.cohort).map(([person]) => person));
            const cameIn = (at: string) =>
              new Set(held.filter(({ person, day }) => members.has(person) && of(day) === at).map(({ person }) => person));
            const what = `${filter.dimension}:${filter.value} ${row.cohort}`;
            expect(within(row.people, members.size), what).toBe(true);
            for (const [at, cell] of later) expect(within(cell.people, cameIn(at).size), `${what} ${at}`).toBe(true);
          }
          filteredReads += 1;
        }
      }),
      { numRuns: 12, seed: 20261203 },
    );
    expect(windows).toBe(12 * 6);
    expect(filteredReads).toBe(12 * 3);
  });
});
