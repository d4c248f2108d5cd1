import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckEngine } from '../../adapters/day-files/duckdb';
import { goalsSetting } from '../../shared/core/events/events';
import { funnelStepsSetting } from '../../shared/core/funnel';
import { tokenRow } from '../../shared/core/rollup/day-columns';
import { addCounts, countsOfToken, emptyCounts, returningOfDocs, type RollupRules } from '../../shared/core/rollup/day-rollup';
import { matchesAll, valuesOf, type Filter } from '../../shared/core/rollup/filters';
import { rowsTally } from '../../shared/core/rollup/rows-tally';
import { addPerson, estimate, mergeSketches } from '../../shared/core/sketch';
import type { VisitorDay } from '../../shared/core/store/activity';
import type { DaysTally } from '../../shared/core/store/day-files';
import { visitorDay } from '../support/counting';

// The engine's SQL over a day's Parquet file and the function's tally of the same rows must both equal a recount of
// the visitor-days that match: any filters, AND-ed, some negated.

const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03'];
const RULES: RollupRules = { steps: funnelStepsSetting.parse(undefined), goals: goalsSetting.parse('signup=event:signup|cv=path:/resume') };
const PATHS = ['/', '/about', '/resume', '/blog/a'];
const HOSTS = ['www.linkedin.com', 'github.com', 'www.google.com'];

const docArb = fc.record({
  day: fc.constantFrom(...DAYS),
  token: fc.integer({ min: 0, max: 14 }),
  store: fc.constantFrom('site', 'shop'),
  person: fc.integer({ min: 0, max: 9 }),
  firstBack: fc.integer({ min: 0, max: 3 }),
  paths: fc.subarray(PATHS, { minLength: 1 }),
  host: fc.option(fc.constantFrom(...HOSTS)),
  country: fc.constantFrom('US', 'DE', 'XX'),
  browser: fc.constantFrom('chrome', 'firefox'),
  event: fc.option(fc.constantFrom('signup', 'download')),
  bots: fc.integer({ min: 0, max: 6 }),
  self: fc.integer({ min: 0, max: 8 }),
  loopback: fc.integer({ min: 0, max: 9 }),
});

type Drawn = typeof docArb extends fc.Arbitrary<infer T> ? T : never;

function docOf(d: Drawn): VisitorDay {
  const requests = d.paths.length;
  const base = visitorDay(d.day, `${d.day}-${d.token}`, {
    store: d.store,
    requests,
    bots: d.bots === 0 ? requests : 0,
    self: d.self === 0 ? 1 : 0,
    network: d.loopback === 0 ? '127.0.0.x' : '203.0.113.x',
  });
  const person = addPerson({}, `person-${d.person}`);
  const first = new Date(Date.parse(`${d.day}T00:00:00Z`) - d.firstBack * 86_400_000).toISOString().slice(0, 10);
  return {
    ...base,
    paths: Object.fromEntries(d.paths.map((path) => [path, 1])),
    page_paths: Object.fromEntries(d.paths.map((path) => [path, 1])),
    sources: d.host === null ? {} : { [d.host]: 1 },
    entry: d.paths[0]!,
    country: d.country,
    browsers: { [d.browser]: 1 },
    ...(d.event === null ? {} : { events: { [d.event]: 1 }, event_props: { [`${d.event}|plan|free`]: 1 } }),
    people_sketch: person,
    ...(d.firstBack === 0 ? { new_sketch: person } : {}),
    first_days: { [first]: person },
  };
}

/** One document an id, as the store keeps them, grouped by day and token. */
function groupsOf(docs: readonly VisitorDay[]): Map<string, VisitorDay[][]> {
  const unique = new Map(docs.map((doc) => [`${doc.day}|${doc.id}`, doc] as const));
  const tokens = new Map<string, VisitorDay[]>();
  for (const doc of unique.values()) tokens.set(`${doc.day}|${doc.token}`, [...(tokens.get(`${doc.day}|${doc.token}`) ?? []), doc]);
  const days = new Map<string, VisitorDay[][]>();
  for (const group of tokens.values()) days.set(group[0]!.day, [...(days.get(group[0]!.day) ?? []), group]);
  return days;
}

/** Each day's counts and people counted again from the matching visitor-days, as a day rollup counts them. */
function recount(groups: ReadonlyMap<string, VisitorDay[][]>, filters: readonly Filter[]) {
  return new Map(
    [...groups].map(([day, tokens]) => {
      const counts = emptyCounts();
      for (const docs of tokens.filter((one) => matchesAll(one, filters, RULES))) addCounts(counts, countsOfToken(docs, RULES), 1);
      const any = tokens.filter((one) => matchesAll(one, filters, RULES, true)).flat();
      const people = estimate(mergeSketches(...any.flatMap((doc) => (doc.people_sketch ? [doc.people_sketch] : []))));
      const back = estimate(mergeSketches(...returningOfDocs(any)));
      return [day, { counts, people, back }] as const;
    }),
  );
}

/** A tally as the recount reads: zero-count entries dropped, people by their estimates. */
const asRecount = (tally: DaysTally, day: string) => {
  const { partial: _partial, ...counts } = tally.counts.get(day) ?? { ...emptyCounts(), partial: false };
  const sum = emptyCounts();
  addCounts(sum, counts, 1);
  const sketches = tally.sketches.get(day);
  return { counts: sum, people: estimate(sketches?.people), back: estimate(sketches?.back) };
};

let engine: DuckEngine;
beforeAll(async () => {
  engine = await DuckEngine.open();
});

describe(
  'a question of several filters, asked of the day files, equals a recount of the matching visitor-days',
  { timeout: 240_000 },
  () => {
    it('in the engine and in the function, for random traffic and random filters with !', async () => {
      let asked = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(docArb, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 2 ** 31 }), async (drawn, seed) => {
          const groups = groupsOf(drawn.map(docOf));
          const files: string[] = [];
          for (const [day, tokens] of groups) {
            const file = join(engine.folder, `${day}-${seed}.parquet`);
            await writeFile(file, await engine.parquetOf([tokens.map((docs) => tokenRow(docs, RULES))]));
            files.push(file);
          }
          const held = [...groups.values()]
            .flat()
            .flatMap((docs) =>
              [...valuesOf(docs, RULES, true)].flatMap(([dimension, values]) => [...values].map((value) => ({ dimension, value }))),
            );
          const filtersArb = fc.array(
            fc
              .tuple(fc.constantFrom(...held, { dimension: 'page' as const, value: '/nowhere' }), fc.boolean())
              .map(([filter, negated]) => ({ ...filter, negated })),
            { minLength: 1, maxLength: 3 },
          );
          for (const filters of fc.sample(filtersArb, { numRuns: 5, seed })) {
            const inEngine = await engine.tally(files, filters);
            const inFunction = rowsTally(filters);
            for (const tokens of groups.values()) inFunction.add(tokens.map((docs) => tokenRow(docs, RULES)));
            const byFunction = inFunction.done();
            const truth = recount(groups, filters);
            for (const day of groups.keys()) {
              const what = JSON.stringify({ day, filters });
              expect(asRecount(inEngine, day), what).toEqual(truth.get(day));
              expect(asRecount(byFunction, day), what).toEqual(truth.get(day));
            }
            asked += 1;
          }
        }),
        { numRuns: 25, seed: 20261206 },
      );
      expect(asked).toBe(25 * 5);
    });

    it('for a day of 6,000 people, whose sketches are dense, and a count that passes a double once coded', async () => {
      const day = DAYS[0]!;
      const tokens = Array.from({ length: 6_000 }, (_, n): VisitorDay[] => {
        const path = n % 3 === 0 ? '/resume' : '/about';
        const person = addPerson({}, `person-${n}`);
        return [
          {
            ...visitorDay(day, `${day}-${n}`, { requests: n === 0 ? 2 ** 33 : 2 }),
            paths: { [path]: 2 },
            page_paths: { [path]: 1 },
            entry: path,
            country: n % 2 === 0 ? 'US' : 'DE',
            people_sketch: person,
            first_days: { [day]: person },
            new_sketch: person,
          },
        ];
      });
      const file = join(engine.folder, `${day}-dense.parquet`);
      await writeFile(
        file,
        await engine.parquetOf([tokens.slice(0, 2_500), tokens.slice(2_500)].map((some) => some.map((docs) => tokenRow(docs, RULES)))),
      );
      const truth = recount(new Map([[day, tokens]]), []);
      for (const filters of [[], [{ dimension: 'page' as const, value: '/resume', negated: true }]]) {
        const inEngine = await engine.tally([file], filters);
        // About 5,000 registers set of all of them, 3,500 of those not on /resume: dense, then packed.
        expect(inEngine.sketches.get(day)?.people).toHaveProperty(filters.length === 0 ? 'dense' : 'packed');
        expect(asRecount(inEngine, day)).toEqual(recount(new Map([[day, tokens]]), filters).get(day));
      }
      expect(truth.get(day)?.counts.requests).toBe(2 ** 33 + 2 * 5_999);
    });
  },
);
