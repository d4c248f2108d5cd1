import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fold, type FoldDeps } from '../../shared/fold/fold';
import { TIMER_FOLD_BUDGET, type FoldBudget } from '../../shared/fold/budget';
import type { HitsMessage, QueuedHit } from '../../shared/core/message';
import { keepHits, keepMemory, type KeepDeps } from '../../shared/keep/keep';
import { fixedClock } from '../../shared/core/ports/clock';
import { keepBySite } from '../../shared/keep/sites';
import { ALL_SITES } from '../../shared/core/sites/sites';
import type { VisitorRecord } from '../../shared/core/store/visitors';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { queuedHit } from '../support/counting';
import { failingAfter } from '../integration/keep-helpers';

// Three sites in one deployment: each site's figures must be those of a deployment that counted only its traffic,
// whatever the traffic (people shared between sites, kinds that change, duplicate deliveries, folds dying after any
// write), and all sites together must count each person once.

const SITES = ['example.com', 'docs.example.org', 'shop.example.net'];
const DAYS = ['2026-09-29', '2026-09-30', '2026-10-01', '2026-10-02'];
const NOW = '2026-10-02T20:00:00.000Z';
const SMALL: FoldBudget = { ...TIMER_FOLD_BUDGET, factsASlice: 2, recordsASlice: 3, buildPage: 2 };

/** One random hit: one of a few people (shared by every site), a bot's look now and then (a kind that changes). */
const hitArb = fc
  .record({
    site: fc.integer({ min: 0, max: 2 }),
    day: fc.integer({ min: 0, max: DAYS.length - 1 }),
    minute: fc.integer({ min: 0, max: 1_000 }),
    person: fc.integer({ min: 0, max: 9 }),
    bot: fc.integer({ min: 0, max: 3 }),
    self: fc.integer({ min: 0, max: 15 }),
    path: fc.constantFrom('/', '/pricing', '/about', '/wp-login.php'),
    pageLoad: fc.boolean(),
  })
  .map((h): QueuedHit => {
    const day = DAYS[h.day]!;
    const at = new Date(Date.parse(`${day}T00:00:00.000Z`) + h.minute * 60_000).toISOString();
    const self = h.self === 0;
    return {
      ...queuedHit(at, {
        person: self ? null : `person-${h.person}`,
        token: `address-${h.person % 6}|${day}`,
        bot: h.bot === 0 && !self,
        self,
        path: h.path,
        page_load: h.pageLoad,
      }),
      site: SITES[h.site]!,
    };
  });

const trafficArb = fc.array(
  fc.record({ hits: fc.array(hitArb, { minLength: 1, maxLength: 6 }), twice: fc.boolean(), failAfter: fc.integer({ min: 1, max: 25 }) }),
  { minLength: 1, maxLength: 8 },
);

type Traffic = Array<{ hits: QueuedHit[]; twice: boolean; failAfter: number }>;
type Site = { store: ReturnType<typeof memoryStore>; keep: KeepDeps; fold: FoldDeps };

/**
 * A deployment of these sites (and all of them together when several), each message kept by keep-hits' use case
 * (twice when asked), after each a fold of every site that dies after one of its writes, then folds until caught up.
 */
async function run(names: readonly string[], traffic: Traffic): Promise<Map<string, Site>> {
  const clock = fixedClock(NOW);
  const sites = new Map<string, Site>();
  for (const name of names.length > 1 ? [...names, ALL_SITES] : names) {
    const store = memoryStore();
    const fold = { store, clock, rules: scanRules(10, 60), lateDays: 7, budget: SMALL };
    sites.set(name, { store, keep: { store, clock, ...keepMemory() }, fold });
  }
  // All sites began before this traffic, so `*` keeps every hit of it.
  const deps = { firstSite: names[0]!, keepOf: (name: string) => sites.get(name)?.keep, allSitesFrom: async () => '0000-00-00' };
  let serial = 0;
  for (const message of traffic) {
    const kept: HitsMessage = { v: 1, id: `00000000-0000-4000-8000-${String((serial += 1)).padStart(12, '0')}`, hits: message.hits };
    const hits = kept.hits.filter((hit) => names.includes(hit.site!));
    if (hits.length === 0) continue;
    for (let time = 0; time < (message.twice ? 2 : 1); time += 1) {
      const outcome = await keepBySite({ ...kept, hits }, deps, keepHits);
      expect(outcome.ok).toBe(true);
    }
    for (const site of sites.values()) await fold({ ...site.fold, store: failingAfter(site.store, message.failAfter) });
    // A fold that died holds the lease until it lapses.
    clock.advance(SMALL.leaseSeconds * 1000);
  }
  for (const site of sites.values()) {
    for (let round = 0; round < 60; round += 1) {
      const outcome = await fold(site.fold);
      clock.advance(60_000);
      if (outcome.ok && outcome.behind === null) break;
    }
  }
  return sites;
}

/** Every figure a site's store answers from: the summaries, the day rollups, the month rollups and cells, the subjects. */
async function figures(store: ReturnType<typeof memoryStore>) {
  const folded = store.documents.query<Record<string, unknown>>((doc) =>
    ['visitors-summary', 'visits-summary', 'day-rollup', 'period-rollup', 'visitor-day', 'activity-hour'].includes(String(doc.kind)),
  );
  // What a run's watermarks are (the store's order of writes) differs between two runs; every figure must not.
  const watermarks = new Set(['folded_to', 'folded_days', 'updated_at']);
  return {
    people: await store.visitorsSummary.peopleFrom(DAYS[0]!),
    documents: folded
      .map((doc) => Object.fromEntries(Object.entries(doc).filter(([key]) => !watermarks.has(key))))
      .sort((a, b) => `${String(a.pk)}|${String(a.id)}`.localeCompare(`${String(b.pk)}|${String(b.id)}`)),
  };
}

const peopleOf = (store: ReturnType<typeof memoryStore>) =>
  new Set(store.documents.query<VisitorRecord>((doc) => doc.kind === 'visitor-record' && doc.who === 'people').map((record) => record.id));

describe('three sites in one deployment', { timeout: 240_000 }, () => {
  it('count each site as a deployment of its traffic alone, and all sites together each person once', async () => {
    let shared = 0;
    await fc.assert(
      fc.asyncProperty(trafficArb, async (traffic) => {
        const together = await run(SITES, traffic);
        const union = new Set<string>();
        for (const name of SITES) {
          const alone = await run([name], traffic);
          const site = together.get(name)!.store;
          expect(await figures(site), name).toEqual(await figures(alone.get(name)!.store));
          for (const person of peopleOf(site)) union.add(person);
        }
        const all = together.get(ALL_SITES)!.store;
        const people = await all.visitorsSummary.peopleFrom(DAYS[0]!);
        expect(people.people_all_time).toBe(union.size);
        expect(peopleOf(all)).toEqual(union);
        const counts = SITES.map((name) => peopleOf(together.get(name)!.store).size);
        if (counts.reduce((a, b) => a + b, 0) > union.size) shared += 1;
      }),
      { numRuns: 30, seed: 20261203 },
    );
    // The traffic did hold people who visited more than one site.
    expect(shared).toBeGreaterThan(5);
  });
});
