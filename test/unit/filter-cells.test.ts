import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import type { PeriodRollup } from '../../shared/core/store/periods';
import { cardOf } from '../support/card';
import { foldOnce, keepHits, queuedHit } from '../support/counting';

/** n people each reading `path` once on `day`. */
const readers = (day: string, path: string, n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => queuedHit(`${day}T10:00:00.000Z`, { person: `${tag}-${path}-${i}`, path, page_load: true }));

describe('filter cells and month and year rollups, at their edges', () => {
  it('keeps no cell of a scanner or of the site reading itself: nothing of theirs is counted in one', async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-09-03T12:00:00.000Z');
    const probes = Array.from({ length: 20 }, (_, i) =>
      queuedHit('2026-09-03T10:00:00.000Z', { person: 'bot', path: `/probe-${i}.php`, bot: true }),
    );
    const own = Array.from({ length: 5 }, (_, i) => queuedHit('2026-09-03T10:00:00.000Z', { person: null, self: true, path: `/own-${i}` }));
    await keepHits(store, clock, [...probes, ...own]);
    await foldOnce(store, clock);
    expect(store.documents.query<PeriodRollup>((doc) => doc.kind === 'period-rollup' && doc.pk.startsWith('cells:'))).toEqual([]);
    const site = store.documents.query<PeriodRollup>((doc) => doc.kind === 'period-rollup' && doc.pk === 'months');
    expect(site.map((doc) => doc.id).sort()).toEqual(['month:2026-09', 'year:2026']);
  });

  it('counts a page the same whether a period reads its whole month or its days, past a day rollup’s 100 names', async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-09-03T20:00:00.000Z');
    // 1 September: 60 pages read by 2 people each, and /q by one; the 2nd: 41 other pages; the 3rd: /q by five.
    await keepHits(store, clock, [
      ...Array.from({ length: 60 }, (_, i) => readers('2026-09-01', `/a${i}`, 2, 'd1')).flat(),
      ...readers('2026-09-01', '/q', 1, 'd1'),
    ]);
    await foldOnce(store, clock);
    await keepHits(store, clock, Array.from({ length: 41 }, (_, i) => readers('2026-09-02', `/b${i}`, 2, 'd2')).flat());
    await foldOnce(store, clock);
    await keepHits(store, clock, readers('2026-09-03', '/q', 5, 'd3'));
    await foldOnce(store, clock);
    clock.advance(29 * 86_400_000);
    const card = cardOf(store, clock);
    const q = (body: { pages: Array<{ path: string }> }) => body.pages.find((row) => row.path === '/q');
    const byDays = (await card('from=2026-09-01&to=2026-09-29')).body;
    const byMonth = (await card('from=2026-09-01&to=2026-09-30')).body;
    expect(q(byDays)).toEqual({ path: '/q', page_loads: 6, people: 6, time_on_page: null, scroll_depth: null });
    expect(q(byMonth)).toEqual(q(byDays));
  });

  it('takes a filter asked twice as one, and a country in any case', async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-09-03T20:00:00.000Z');
    await keepHits(store, clock, [
      { ...queuedHit('2026-09-03T10:00:00.000Z', { person: 'de', path: '/', page_load: true }), country: 'DE' },
      { ...queuedHit('2026-09-03T10:00:00.000Z', { person: 'us', path: '/', page_load: true, token: 'us' }), country: 'US' },
    ]);
    await foldOnce(store, clock);
    const card = cardOf(store, clock);
    const twice = (await card('days=1&filter=country:de&filter=country:DE')).body;
    expect(twice.filters).toEqual([{ dimension: 'country', value: 'DE', negated: false }]);
    expect(twice.headline).toMatchObject({ people: 1, visits: 1 });
    // One filter is read from its cells, complete from the day the store began keeping them.
    expect(twice.rollups).toMatchObject({ complete: true, filters_from: '0000-00-00' });
  });
});
