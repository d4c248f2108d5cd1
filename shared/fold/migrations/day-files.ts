import { addDays } from '../../core/days';
import type { RollupRules } from '../../core/rollup/day-rollup';
import { tokenPages } from '../../core/rollup/token-pages';
import { DAY_FILES_MIGRATION, dayFilesPlace, type DayFiles } from '../../core/store/day-files';
import type { VisitorDayPages } from '../../core/store/rollups';
import type { Migration } from './runner';

export interface DayFilesDeps {
  /** Null without Blob Storage: there is nothing to write. */
  files: DayFiles | null;
  pages: VisitorDayPages;
  /** The first day a visitor-day can be kept on; null when none is. */
  firstDay: () => Promise<string | null>;
  /** The site's local today: the days before it are closed. */
  today: string;
  rules: RollupRules;
}

function dayOf(position: string): string {
  const parsed = dayFilesPlace.safeParse(JSON.parse(position));
  if (!parsed.success) throw new Error(`the ${DAY_FILES_MIGRATION} migration holds a position it did not write`);
  return parsed.data.day;
}

/**
 * Every kept closed day's file written in the current layout, a day a slice from yesterday back to the first day kept:
 * the days kept before the files, and those of the layout before, which the write removes. A day's rows are read a page
 * at a time, so memory holds a page whatever its visitors; a slice run again writes the same file.
 */
export function dayFilesMigration(deps: DayFilesDeps): Migration {
  return {
    name: DAY_FILES_MIGRATION,
    async slice({ position }) {
      if (deps.files === null) return null;
      const floor = await deps.firstDay();
      const day = position === null ? addDays(deps.today, -1) : dayOf(position);
      if (floor === null || day < floor) return null;
      await deps.files.write(day, tokenPages(deps.pages, day, deps.rules));
      const next = addDays(day, -1);
      return next < floor ? null : JSON.stringify({ day: next });
    },
  };
}
