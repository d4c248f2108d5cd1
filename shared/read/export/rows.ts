import { emptyCounts } from '../../core/rollup/day-rollup';
import { type RollupCounts } from '../../core/store/rollups';
import { listingOf, type ExportLists } from '../activity/audience';
import { EXPORTED } from '../../core/dimensions';
import { byDay } from '../activity/by-day';
import { sourcesOf } from '../activity/sources';
import { timedOf, timeFigures } from '../activity/time-on-site';

export interface ExportRow extends ExportLists {
  day: string;
  /** Null with filters: who was new is not kept by filter value. */
  people_new: number | null;
  visits: number;
  visitor_days: { people: number; scanners: number; self: number; total: number };
  sources: { linkedin: number; github: number; search: number; other: number; typed: number };
  /** Null on a day with no visit, or folded before time on site was kept. */
  views_per_visit: number | null;
  bounce_rate: number | null;
  visit_duration: number | null;
}

// A day rolled up before a dimension was counted lacks its map.
const listsOf = (counts: Partial<RollupCounts>) =>
  Object.fromEntries(EXPORTED.map((row) => [row.export.column, listingOf(row.filter).rows(counts[row.rollup] ?? {})])) as ExportLists;

export function exportRows(
  days: readonly string[],
  rollups: ReadonlyMap<string, RollupCounts>,
  peopleNew: Record<string, number> | null,
  visits: Record<string, number> | null,
): ExportRow[] {
  const kinds = new Map(byDay(rollups, days).map((row) => [row.day, row]));
  return days.map((d) => {
    const counts = rollups.get(d) ?? emptyCounts();
    const { linkedin, github, search, other, typed } = sourcesOf(counts);
    const { people, scanners, self, total } = kinds.get(d)!;
    return {
      day: d,
      people_new: peopleNew === null ? null : (peopleNew[d] ?? 0),
      // Filtered, a day's visits are its matching people's visitor-days: one visit each.
      visits: visits === null ? people : (visits[d] ?? 0),
      visitor_days: { people, scanners, self, total },
      sources: { linkedin, github, search, other, typed },
      ...listsOf(counts),
      ...timeFigures(counts, timedOf([counts])),
    };
  });
}
