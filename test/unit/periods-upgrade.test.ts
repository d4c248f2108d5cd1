import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { addDays } from '../../shared/core/days';
import { fixedClock } from '../../shared/core/ports/clock';
import type { FoldState } from '../../shared/core/store/fold';
import { cardOf } from '../support/card';
import { foldOnce, keepHits, queuedHit } from '../support/counting';

// A store folded before month rollups and filter cells has none: its months are read day by day, with the same
// figures, and filters say from when they count.

const TODAY = '2026-10-23';
const clock = fixedClock(`${TODAY}T20:00:00.000Z`);

/** Forty days, from mid-September: on day d, people d % 7 … d % 7 + 4 read `/` and person 1 also /pricing from GitHub. */
async function site() {
  const store = memoryStore();
  // A year before, kept and folded as it went: a person on the first of each month of 2025.
  for (let m = 1; m <= 12; m += 1) {
    const day = `2025-${String(m).padStart(2, '0')}-01`;
    const then = fixedClock(`${day}T20:00:00.000Z`);
    await keepHits(store, then, [queuedHit(`${day}T09:00:00.000Z`, { person: `q${m % 3}`, path: '/', page_load: true })]);
    await foldOnce(store, then);
  }
  for (let d = 0; d < 40; d += 1) {
    const day = addDays(TODAY, d - 39);
    const hits = Array.from({ length: 5 }, (_, n) => {
      const person = (d % 7) + n;
      return [
        queuedHit(`${day}T10:0${n}:00.000Z`, { person: `p${person}`, path: '/', page_load: true }),
        ...(person === 1
          ? [queuedHit(`${day}T10:30:00.000Z`, { person: 'p1', path: '/pricing', page_load: true, source: 'github.com' })]
          : []),
      ];
    }).flat();
    await keepHits(store, clock, hits);
  }
  await foldOnce(store, clock);
  const read = cardOf(store, clock);
  const card = async (query: string) => {
    const { cost: _cost, ...body } = (await read(query)).body as Record<string, unknown>;
    return body as Record<string, any>;
  };
  return { store, card };
}

describe('a store folded before month rollups and filter cells', () => {
  it('answers every figure of a long period as one that has them, and filters count from the day it began keeping them', async () => {
    const kept = await site();
    const range = 'from=2026-08-01&to=2026-10-23';
    const withMonths = await kept.card(range);
    expect(withMonths.headline.people).toBeGreaterThan(0);
    expect(withMonths.rollups).toEqual({ complete: true, built_back_to: null });

    // The same store as an older version left it: no month rollups, no filter cells, a fold state without periods_from.
    const old = await site();
    for (const doc of old.store.documents.query<{ kind: string; pk: string; id: string }>((doc) => doc.kind === 'period-rollup'))
      old.store.documents.delete(doc.pk, doc.id);
    const state = old.store.documents.read<FoldState>('visitors', 'fold-state')!;
    const { periods_from: _from, years_from: _years, ...before } = state.doc;
    expect(old.store.documents.replace(before as FoldState, state.etag)).toBe('replaced');
    expect(await old.card(range)).toEqual(withMonths);

    // The first run after the update keeps them from tomorrow: older days are still read one by one, the same.
    await foldOnce(old.store, clock);
    expect(old.store.documents.read<FoldState>('visitors', 'fold-state')!.doc.periods_from).toBe(addDays(TODAY, 1));
    expect(await old.card(range)).toEqual(withMonths);
    const filtered = await old.card(`${range}&filter=page:/pricing`);
    expect(filtered.rollups).toMatchObject({ complete: false, filters_from: addDays(TODAY, 1) });
    const fresh = await kept.card(`${range}&filter=page:/pricing`);
    expect(fresh.rollups).toMatchObject({ complete: true, filters_from: '0000-00-00' });
    // Filtered, who was new comes from the matching days' sketches of new people: person 1 first came in the range, and
    // came back on later days of it, so is returning too.
    expect(fresh.headline).toMatchObject({ people: 1, people_new: 1, returning: 1 });
    // Person 1 is among a day's five when d % 7 is 0 or 1: twelve of the forty days.
    expect(fresh.headline.visits).toBe(12);
    expect(fresh.by_day.filter((row: { people: number }) => row.people > 0)).toHaveLength(12);
  });
});

describe('a store folded with month rollups before year rollups', () => {
  it('reads its older years from their months, with the same figures, and moves year rollups from tomorrow', async () => {
    const kept = await site();
    const range = 'from=2025-01-01&to=2026-10-23';
    const withYears = await kept.card(range);
    expect(kept.store.documents.read('months', 'year:2025')).not.toBeNull();
    expect(withYears.headline.people).toBeGreaterThan(3);

    // As the version before years left it: months and cells, no year rollups, a fold state without years_from.
    const old = await site();
    for (const doc of old.store.documents.query<{ pk: string; id: string; span: string }>((doc) => doc.span === 'year'))
      old.store.documents.delete(doc.pk, doc.id);
    const state = old.store.documents.read<FoldState>('visitors', 'fold-state')!;
    const { years_from: _years, ...before } = state.doc;
    expect(old.store.documents.replace(before as FoldState, state.etag)).toBe('replaced');
    expect(await old.card(range)).toEqual(withYears);

    await foldOnce(old.store, clock);
    expect(old.store.documents.read<FoldState>('visitors', 'fold-state')!.doc.years_from).toBe(addDays(TODAY, 1));
    expect(await old.card(range)).toEqual(withYears);
  });
});
