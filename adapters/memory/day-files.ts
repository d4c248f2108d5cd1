import type { TokenRow } from '../../shared/core/rollup/day-columns';
import { cohortsTally, matchesRow, rowsTally } from '../../shared/core/rollup/rows-tally';
import type { DayFiles } from '../../shared/core/store/day-files';

/** Each day's rows as the file would hold them, summed by the same rules as the engine's SQL. */
export function memoryDayFiles(): DayFiles & { rows: Map<string, { rows: TokenRow[]; mark: number }> } {
  const rows = new Map<string, { rows: TokenRow[]; mark: number }>();
  return {
    rows,
    written: async (days) => new Map(days.flatMap((day) => (rows.has(day) ? [[day, rows.get(day)!.mark] as const] : []))),
    async write(day, pages, mark) {
      const all: TokenRow[] = [];
      for await (const page of pages) all.push(...page);
      rows.set(day, { rows: all, mark });
    },
    async tally(days, filters) {
      const tally = rowsTally(filters);
      for (const day of days) tally.add((rows.get(day)?.rows ?? []).filter((row) => matchesRow(row, filters, false)));
      return tally.done();
    },
    async cohorts(days, filters) {
      const tally = cohortsTally(filters);
      for (const day of days) tally.add(rows.get(day)?.rows ?? []);
      return tally.done();
    },
  };
}

