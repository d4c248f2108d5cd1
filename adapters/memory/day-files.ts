import type { TokenRow } from '../../shared/core/rollup/day-columns';
import { cohortsTally, matchesRow, rowsTally } from '../../shared/core/rollup/rows-tally';
import type { DayFiles } from '../../shared/core/store/day-files';

/** Each day's rows as the file would hold them, summed by the same rules as the engine's SQL. */
export function memoryDayFiles(): DayFiles & { rows: Map<string, TokenRow[]> } {
  const rows = new Map<string, TokenRow[]>();
  return {
    rows,
    written: async (days) => new Set(days.filter((day) => rows.has(day))),
    async write(day, pages) {
      const all: TokenRow[] = [];
      for await (const page of pages) all.push(...page);
      rows.set(day, all);
    },
    async tally(days, filters) {
      const tally = rowsTally(filters);
      for (const day of days) tally.add((rows.get(day) ?? []).filter((row) => matchesRow(row, filters, false)));
      return tally.done();
    },
    async cohorts(days, filters) {
      const tally = cohortsTally(filters);
      for (const day of days) tally.add(rows.get(day) ?? []);
      return tally.done();
    },
  };
}
