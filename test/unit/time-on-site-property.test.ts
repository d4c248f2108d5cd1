import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { TIMER_FOLD_BUDGET, type FoldBudget } from '../../shared/fold/budget';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import type { VisitorDay } from '../../shared/core/store/activity';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { funnelStepsSetting } from '../../shared/core/funnel';
import { matchesAll, type Filter } from '../../shared/core/rollup/filters';
import { queuedHit } from '../support/counting';
import { keptAndFolded } from '../support/rollups';
import { cardOf } from '../support/card';

// Time on site is folded into the rollups by deltas; whatever the traffic, the figures the card reads from them must be
// a recount of the visitor-days the keeping left, under every filter.

const DAYS = ['2026-10-20', '2026-10-21', '2026-10-22'];
const NOW = '2026-10-22T20:00:00.000Z';
const PATHS = ['/', '/about', '/pricing'];
const RULES = { steps: funnelStepsSetting.parse(undefined), goals: [] };

/** A person's day: page loads, each maybe followed by its engagement, an event now and then, a bot or an engagement with no visit. */
const hitsArb = fc
  .record({
    day: fc.integer({ min: 0, max: DAYS.length - 1 }),
    person: fc.integer({ min: 0, max: 7 }),
    store: fc.constantFrom('site', 'site', 'shop'),
    bot: fc.integer({ min: 0, max: 9 }),
    views: fc.array(
      fc.record({
        minute: fc.integer({ min: 0, max: 1_200 }),
        path: fc.constantFrom(...PATHS),
        engaged: fc.option(fc.record({ ms: fc.integer({ min: 0, max: 600_000 }), scroll: fc.integer({ min: 0, max: 100 }) })),
        event: fc.boolean(),
      }),
      { minLength: 0, maxLength: 4 },
    ),
  })
  .map(({ day, person, store, bot, views }): QueuedHit[] => {
    const at = (minute: number) => new Date(Date.parse(`${DAYS[day]}T00:00:00.000Z`) + minute * 60_000).toISOString();
    const options = { person: `person-${person}`, token: `address-${person}|${DAYS[day]}`, store, bot: bot === 0 };
    if (views.length === 0) return [{ ...queuedHit(at(600), { ...options, path: '/' }), engagement: { ms: 5_000, scroll: 10 } }];
    return views.flatMap((view) => [
      queuedHit(at(view.minute), { ...options, path: view.path, page_load: true }),
      ...(view.event ? [{ ...queuedHit(at(view.minute + 1), { ...options, path: view.path }), event: 'signup' }] : []),
      ...(view.engaged === null ? [] : [{ ...queuedHit(at(view.minute), { ...options, path: view.path }), engagement: view.engaged }]),
    ]);
  });

/** Messages of a few visitors' days, the hits of one message in any order, some delivered twice, folds dying after a write. */
const trafficArb = fc.array(
  fc.record({
    hits: fc
      .array(hitsArb, { minLength: 1, maxLength: 3 })
      .chain((days) => fc.shuffledSubarray(days.flat(), { minLength: days.flat().length })),
    twice: fc.boolean(),
    failAfter: fc.integer({ min: 0, max: 10 }),
  }),
  { minLength: 1, maxLength: 8 },
);

const FILTERS: Array<{ query: string; filters: Filter[] }> = [
  { query: '', filters: [] },
  { query: '&filter=page:/about', filters: [{ dimension: 'page', value: '/about', negated: false }] },
  { query: '&filter=entry:/', filters: [{ dimension: 'entry', value: '/', negated: false }] },
  { query: '&filter=exit:/about', filters: [{ dimension: 'exit', value: '/about', negated: false }] },
  { query: '&filter=!page:/pricing', filters: [{ dimension: 'page', value: '/pricing', negated: true }] },
];

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** The figures counted again from the visitor-days alone: each people's token of a day is one visit. */
function recount(rows: readonly VisitorDay[], days: readonly string[], filters: readonly Filter[]) {
  const tokens = new Map<string, VisitorDay[]>();
  for (const row of rows.filter((one) => days.includes(one.day)))
    tokens.set(`${row.day}|${row.token}`, [...(tokens.get(`${row.day}|${row.token}`) ?? []), row]);
  const visits = [...tokens.values()].filter((docs) => matchesAll(docs, filters, RULES));
  let loads = 0;
  let bounces = 0;
  let ms = 0;
  const pages = new Map<string, { visits: number; ms: number; scroll: number }>();
  const exits = new Map<string, number>();
  for (const docs of visits) {
    const pageLoads = docs.reduce((sum, doc) => sum + doc.page_loads, 0);
    loads += pageLoads;
    if (pageLoads === 1 && docs.every((doc) => Object.keys(doc.events ?? {}).length === 0)) bounces += 1;
    const engaged = docs.filter((doc) => doc.engaged_ms !== undefined);
    ms +=
      engaged.length > 0
        ? engaged.reduce((sum, doc) => sum + doc.engaged_ms!, 0)
        : Math.max(...docs.map((doc) => Date.parse(doc.last_seen))) - Math.min(...docs.map((doc) => Date.parse(doc.first_seen)));
    for (const path of new Set(docs.flatMap((doc) => Object.keys(doc.page_ms ?? {})))) {
      const page = pages.get(path) ?? { visits: 0, ms: 0, scroll: 0 };
      page.visits += 1;
      page.ms += docs.reduce((sum, doc) => sum + (doc.page_ms?.[path] ?? 0), 0);
      page.scroll += Math.max(...docs.map((doc) => doc.page_scroll?.[path] ?? 0));
      pages.set(path, page);
    }
    const last = docs
      .filter((doc) => doc.exit_at !== undefined)
      .sort((a, b) => (`${a.exit_at}${a.exit}` < `${b.exit_at}${b.exit}` ? 1 : -1))[0];
    if (last !== undefined) exits.set(last.exit!, (exits.get(last.exit!) ?? 0) + 1);
  }
  const n = visits.length;
  return {
    figures:
      n === 0
        ? { views_per_visit: null, bounce_rate: null, visit_duration: null }
        : { views_per_visit: round(loads / n, 2), bounce_rate: round((100 * bounces) / n, 1), visit_duration: Math.round(ms / n / 1000) },
    pages,
    exits,
  };
}

const SMALL: FoldBudget = { ...TIMER_FOLD_BUDGET, factsASlice: 2, recordsASlice: 3, buildPage: 2 };

describe('time on site from the rollups equals a recount from the visitor-days', { timeout: 240_000 }, () => {
  it('for random visits, engagements, events, duplicate deliveries and dying folds, with and without filters', async () => {
    await fc.assert(
      fc.asyncProperty(trafficArb, async (traffic) => {
        const store = memoryStore();
        const clock = fixedClock(NOW);
        await keptAndFolded(traffic, { store, clock, rules: scanRules(10, 60), lateDays: 7, budget: SMALL });
        const rows = store.documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day');
        const card = cardOf(store, clock);
        for (const { query, filters } of FILTERS) {
          for (const days of [DAYS, DAYS.slice(1)]) {
            const { body } = await card(`from=${days[0]}&to=${days.at(-1)}${query}`);
            const truth = recount(rows, days, filters);
            expect(body.headline, `${days[0]}${query}`).toMatchObject(truth.figures);
            for (const page of body.pages as Array<{ path: string; time_on_page: number | null; scroll_depth: number | null }>) {
              const kept = truth.pages.get(page.path);
              expect(page, query).toEqual({
                ...page,
                time_on_page: kept === undefined ? null : Math.round(kept.ms / kept.visits / 1000),
                scroll_depth: kept === undefined ? null : Math.round(kept.scroll / kept.visits),
              });
            }
            expect(new Map(body.exit_pages.map((row: { path: string; people: number }) => [row.path, row.people])), query).toEqual(
              truth.exits,
            );
          }
        }
      }),
      { numRuns: 40, seed: 20261206 },
    );
  });
});
