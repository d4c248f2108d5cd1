import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { TIMER_FOLD_BUDGET, type FoldBudget } from '../../shared/fold/budget';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { pageMatches } from '../../shared/core/events/events';
import type { Funnel } from '../../shared/core/funnel';
import { queuedHit } from '../support/counting';
import { keptAndFolded } from '../support/rollups';
import { cardOf } from '../support/card';

// A funnel's steps are counted in order within a visit: whatever the traffic, each step's visits are a recount, from
// the hits sent, of the people's visits that first reached steps 1 to k each no earlier than the one before, under no
// filter, one filter (its cells) and two (the day files and today's visitor-days).

const DAYS = ['2026-10-20', '2026-10-21', '2026-10-22'];
const NOW = '2026-10-22T20:00:00.000Z';
/** A step of one page with `*`, a step of an event, a step of one of two pages. */
const FUNNEL: Funnel = {
  name: 'buy',
  steps: [
    { name: 'Pricing', pages: ['/pricing/*'], events: [] },
    { name: 'Signed up', pages: [], events: ['signup'] },
    { name: 'Thanks', pages: ['/thanks', '/done'], events: [] },
  ],
};
const ACTIONS = ['/', '/about', '/pricing/team', '/pricing/solo', '/thanks', '/done', 'event:signup'] as const;

interface Visit {
  day: number;
  person: number;
  bot: boolean;
  requests: Array<{ minute: number; action: (typeof ACTIONS)[number]; store: string }>;
}

const visitArb = fc.record({
  day: fc.integer({ min: 0, max: DAYS.length - 1 }),
  person: fc.integer({ min: 0, max: 9 }),
  bot: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  requests: fc.array(
    fc.record({ minute: fc.integer({ min: 0, max: 1_200 }), action: fc.constantFrom(...ACTIONS), store: fc.constantFrom('site', 'shop') }),
    { minLength: 1, maxLength: 6 },
  ),
});

/** A person's every hit is from one country, so a visit's country is the same whichever of its hits was kept first. */
const countryOf = (person: number) => (person % 2 === 0 ? 'FR' : 'DE');

const hitsOf = (visit: Visit): QueuedHit[] =>
  visit.requests.map(({ minute, action, store }) => {
    const at = new Date(Date.parse(`${DAYS[visit.day]}T00:00:00.000Z`) + minute * 60_000).toISOString();
    const options = { person: `person-${visit.person}`, token: `address-${visit.person}|${DAYS[visit.day]}`, store, bot: visit.bot };
    const hit = { ...queuedHit(at, { ...options, path: action.startsWith('/') ? action : '/app', page_load: action.startsWith('/') }) };
    return { ...hit, country: countryOf(visit.person), ...(action.startsWith('event:') ? { event: action.slice(6) } : {}) };
  });

/** Each person's day is one visit: its hits, whatever messages carried them. */
function visitsOf(visits: readonly Visit[]) {
  const byToken = new Map<string, { hits: QueuedHit[]; country: string }>();
  for (const visit of visits) {
    const key = `${visit.day}|${visit.person}`;
    const kept = byToken.get(key) ?? { hits: [], country: countryOf(visit.person) };
    kept.hits.push(...hitsOf(visit));
    byToken.set(key, kept);
  }
  return [...byToken.values()];
}

/** How many steps in order the visit reached: each step's first time no earlier than the step before's. */
function stepsInOrder(hits: readonly QueuedHit[]): number {
  let after = '';
  for (const [at, step] of FUNNEL.steps.entries()) {
    const times = hits
      .filter((hit) => (hit.event === undefined ? step.pages.some((page) => pageMatches(page, hit.path)) : step.events.includes(hit.event)))
      .map((hit) => hit.at)
      .sort();
    if (times.length === 0 || times[0]! < after) return at;
    after = times[0]!;
  }
  return FUNNEL.steps.length;
}

const FILTERS = [
  { query: '', keeps: () => true },
  { query: '&filter=country:FR', keeps: (visit: { country: string }) => visit.country === 'FR' },
  {
    query: '&filter=country:DE&filter=page:/',
    keeps: (visit: { country: string; hits: QueuedHit[] }) =>
      visit.country === 'DE' && visit.hits.some((hit) => hit.page_load && hit.path === '/'),
  },
];

const SMALL: FoldBudget = { ...TIMER_FOLD_BUDGET, factsASlice: 2, recordsASlice: 3, buildPage: 2 };

describe("a funnel's steps in order within a visit equal a recount of the hits", { timeout: 240_000 }, () => {
  it('for random visits reaching the steps in and out of order, over several messages and stores, under filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(visitArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 12, maxLength: 12 }),
        async (visits, failAfter) => {
          const store = memoryStore();
          const clock = fixedClock(NOW);
          const traffic = visits.map((visit, at) => ({ hits: hitsOf(visit), twice: at % 3 === 0, failAfter: failAfter[at]! }));
          const deps = { store, clock, rules: scanRules(10, 60), lateDays: 7, budget: SMALL, funnels: [FUNNEL] };
          await keptAndFolded(traffic, deps);
          const card = cardOf(store, clock, { funnels: [FUNNEL] });
          const people = visitsOf(visits).filter((visit) => !visit.hits.every((hit) => hit.bot));
          for (const { query, keeps } of FILTERS) {
            const { body } = await card(`from=${DAYS[0]}&to=${DAYS.at(-1)}${query}`);
            const reached = people.filter(keeps).map((visit) => stepsInOrder(visit.hits));
            const visitsAt = FUNNEL.steps.map((_, at) => reached.filter((steps) => steps > at).length);
            expect(body.funnels, query).toEqual([
              {
                funnel: 'buy',
                in_order: true,
                steps: FUNNEL.steps.map((step, at) => ({
                  name: step.name,
                  visits: visitsAt[at],
                  drop_off: at === 0 ? 0 : visitsAt[at - 1]! - visitsAt[at]!,
                })),
              },
            ]);
          }
        },
      ),
      { numRuns: 25, seed: 57 },
    );
  });
});
