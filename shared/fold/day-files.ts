import type { RollupRules } from '../core/rollup/day-rollup';
import { tokenPages } from '../core/rollup/token-pages';
import type { FoldingStore } from '../core/store';
import type { StateWriter } from './state';

/** Closed days a run writes at most, so its cost is bounded whatever the days due. */
export const FILES_A_RUN = 2;

/**
 * Each closed day whose visitor-days changed is written once more as its file, whole, newest first; a day that late
 * hits change again is due again. A run that dies before it drops the day from the state writes it again: the same file.
 */
export async function writeDayFiles(
  store: Pick<FoldingStore, 'dayFiles' | 'visitorDayPages'>,
  state: StateWriter,
  today: string,
  rules: RollupRules,
  more: () => Promise<boolean>,
): Promise<void> {
  const files = store.dayFiles;
  if (files === null) return;
  const due = (state.current().files_due ?? [])
    .filter((day) => day < today)
    .sort()
    .reverse();
  for (const day of due.slice(0, FILES_A_RUN)) {
    if (!(await more())) return;
    await files.write(day, tokenPages(store.visitorDayPages, day, rules));
    await state.write({ files_due: (state.current().files_due ?? []).filter((at) => at !== day) });
  }
}
