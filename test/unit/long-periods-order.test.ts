import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { emptyCounts } from '../../shared/core/rollup/day-rollup';
import { periodKey } from '../../shared/core/rollup/periods';
import { type DayFigures, type PeriodRollup } from '../../shared/core/store/periods';
import { estimate } from '../../shared/core/sketch';
import type { PeriodRollups } from '../../shared/core/store/periods';
import { foldLongPeriods, type PeriodMove } from '../../shared/fold/periods';

// A filter's month never holds returning people its site's month does not: the site's months are written first, and
// a filter's only once the site's of that day are.

const DAY = '2026-10-23';
const FILTER = { dimension: 'page' as const, value: '/' };

const figures: DayFigures = {
  visitor_days: { people: 1, scanners: 0, self: 0, total: 1 },
  left_out: emptyCounts().left_out,
  page_loads: 1,
};

/** One person back that day, moving the site's month or the filter's. */
const moveOf = (filter: PeriodRollup['filter']): PeriodMove => {
  const counts = emptyCounts();
  counts.visitor_days.people = 1;
  counts.visitor_days.total = 1;
  return {
    ...periodKey('month', DAY, filter),
    filter,
    span: 'month',
    day: DAY,
    upTo: 7,
    delta: { changes: [{ out: emptyCounts(), in: counts }], sketches: [{ 5: 2 }], fresh: [], back: [{ 5: 2 }], partial: false },
    figures,
  };
};

describe("the round's months and years", () => {
  it("write a filter's only after the site's, so a site's month that failed leaves the filter's unwritten too", async () => {
    const store = memoryStore();
    let refused = 0;
    const periods: PeriodRollups = {
      read: (pk, id) => store.periods.read(pk, id),
      replace: (doc, etag) => store.periods.replace(doc, etag),
      create: async (doc) => {
        if (doc.filter === null) {
          refused += 1;
          throw new Error('the site’s month could not be written');
        }
        return store.periods.create(doc);
      },
    };
    const failed = await foldLongPeriods(periods, [moveOf(FILTER), moveOf(null)]);
    expect(refused).toBe(1);
    expect(failed.get(DAY)).toMatch(/could not be written/);
    const cell = periodKey('month', DAY, FILTER);
    expect(await store.periods.read(cell.pk, cell.id)).toBeNull();

    // The next run writes both, the filter's month no more than the site's.
    expect((await foldLongPeriods(store.periods, [moveOf(FILTER), moveOf(null)])).size).toBe(0);
    const site = periodKey('month', DAY, null);
    const [whole, part] = [await store.periods.read(site.pk, site.id), await store.periods.read(cell.pk, cell.id)];
    expect(estimate(part!.doc.returning_sketch)).toBe(1);
    expect(estimate(part!.doc.returning_sketch)).toBeLessThanOrEqual(estimate(whole!.doc.returning_sketch));
  });
});
