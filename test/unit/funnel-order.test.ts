import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import type { Funnel } from '../../shared/core/funnel';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Fact } from '../../shared/core/store/facts';
import { cardOf } from '../support/card';
import { keepHits, queuedHit } from '../support/counting';
import { fold } from '../../shared/fold/fold';
import { scanRules } from '../../shared/core/subjects/scan-rule';

// Visitor-days kept before each path's first time was are counted in a funnel by set, and the answer says from which
// day steps are in order; from then on a step reached before the one before it is not counted.

const FUNNEL: Funnel = {
  name: 'read',
  steps: [
    { name: 'Pricing', pages: ['/pricing/*'], events: [] },
    { name: 'About', pages: ['/about'], events: [] },
  ],
};
const NOW = '2026-10-22T20:00:00.000Z';

/** About, then a pricing page five minutes later: both steps, in the wrong order. */
const backwards = (day: string, person: string) => [
  queuedHit(`${day}T10:00:00.000Z`, { person, token: `${person}|${day}`, path: '/about', page_load: true }),
  queuedHit(`${day}T10:05:00.000Z`, { person, token: `${person}|${day}`, path: '/pricing/team', page_load: true }),
];

describe('a funnel over visitor-days kept before first times were', () => {
  it('counts those by set, says from which day steps are in order, and counts the later days in order', async () => {
    const store = memoryStore();
    const clock = fixedClock(NOW);
    await keepHits(store, clock, backwards('2026-10-21', 'ann'));
    // The facts of the 21st as keep-hits wrote them before first times were kept.
    for (const fact of store.documents.query<Fact>((doc) => doc.kind === 'fact', '2026-10-21')) {
      const read = store.documents.read<Fact>(fact.pk, fact.id)!;
      const older: Fact = { ...fact, visitor_days: fact.visitor_days.map(({ first_at: _first, ...part }) => part) };
      expect(store.documents.replace(older, read.etag)).toBe('replaced');
    }
    await keepHits(store, clock, [
      ...backwards('2026-10-22', 'ben'),
      queuedHit('2026-10-22T11:00:00.000Z', { person: 'cat', token: 'cat|2026-10-22', path: '/pricing/solo', page_load: true }),
      queuedHit('2026-10-22T11:01:00.000Z', { person: 'cat', token: 'cat|2026-10-22', path: '/about', page_load: true }),
    ]);
    expect(await fold({ store, clock, rules: scanRules(10, 60), lateDays: 7, funnels: [FUNNEL] })).toMatchObject({
      ok: true,
      behind: null,
    });
    const card = cardOf(store, clock, { funnels: [FUNNEL] });
    const both = (await card('from=2026-10-21&to=2026-10-22')).body.funnels[0];
    expect(both).toEqual({
      funnel: 'read',
      in_order: false,
      in_order_from: '2026-10-22',
      steps: [
        { name: 'Pricing', visits: 3, drop_off: 0 },
        // Ann's, by set; Cat's in order; Ben's, kept with first times, read about before pricing.
        { name: 'About', visits: 2, drop_off: 1 },
      ],
    });
    const today = (await card('from=2026-10-22&to=2026-10-22')).body.funnels[0];
    expect(today).toMatchObject({ in_order: true, steps: [{ visits: 2 }, { visits: 1 }] });
    expect('in_order_from' in today).toBe(false);
  });
});
