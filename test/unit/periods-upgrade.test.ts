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

describe('a store folded before returning people were kept', () => {
  it('says null on those days and counts no one of them, and each day folded since holds them whole', async () => {
    const kept = await site();
    const week = `from=${addDays(TODAY, -6)}&to=${TODAY}`;
    expect((await kept.card(week)).headline.returning).toBeGreaterThan(0);

    // As an older version left it: no rollup, cell, month or day's figures hold returning people.
    for (const doc of kept.store.documents.query<any>((doc) => doc.kind === 'day-rollup' || doc.kind === 'period-rollup')) {
      const { returning_sketch: _sketch, ...older } = doc;
      if (older.by_day !== undefined)
        older.by_day = Object.fromEntries(Object.entries(older.by_day).map(([day, { returning: _r, ...figures }]: any) => [day, figures]));
      expect(kept.store.documents.replace(older, kept.store.documents.read(doc.pk, doc.id)!.etag)).toBe('replaced');
    }
    for (const query of [week, `${week}&filter=page:/`]) {
      const old = await kept.card(query);
      expect(old.by_day.map((row: any) => row.returning)).toEqual(old.by_day.map(() => null));
      expect(old.headline.returning).toBe(0);
    }

    // More of today, folded into its older rollup, leaves it without them rather than with a part of them.
    await keepHits(kept.store, clock, [queuedHit(`${TODAY}T11:00:00.000Z`, { person: 'p6', path: '/', page_load: true })]);
    await foldOnce(kept.store, clock);
    expect((await kept.card(week)).by_day.at(-1).returning).toBeNull();

    // Tomorrow p1 and p2 are back: the day, its cell and its month hold them.
    const tomorrow = addDays(TODAY, 1);
    const later = fixedClock(`${tomorrow}T20:00:00.000Z`);
    await keepHits(
      kept.store,
      later,
      ['p1', 'p2'].map((person) => queuedHit(`${tomorrow}T10:00:00.000Z`, { person, path: '/', page_load: true })),
    );
    await foldOnce(kept.store, later);
    for (const query of [`from=${addDays(tomorrow, -6)}&to=${tomorrow}`, `from=${addDays(tomorrow, -6)}&to=${tomorrow}&filter=page:/`]) {
      const { body } = await cardOf(kept.store, later)(query);
      expect(body.by_day.at(-1).returning, query).toBe(2);
      expect(body.headline.returning, query).toBe(2);
    }
    const month = kept.store.documents.read<any>('months', `month:${tomorrow.slice(0, 7)}`)!.doc;
    expect(month.by_day[tomorrow].returning).toBe(2);
    expect(month.by_day[TODAY].returning).toBeUndefined();
  });
});
