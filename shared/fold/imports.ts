import { addDays } from '../core/days';
import type { LandedImports } from '../core/store/imports';
import { SCANNERS_COUNTED_AGAIN_DAYS } from './people';
import { sliceOf } from './slice';
import type { StateWriter } from './state';

/** How many imported days are folded beside the near days at once: a backlog of years moves a few days a round. */
export const IMPORTED_AT_ONCE = 8;

/** How many landed notes one slice reads at most. */
const NOTES_A_SLICE = 2_000;

const union = (held: readonly string[], more: Iterable<string>): string[] => [...new Set([...held, ...more])].sort();

/**
 * Reads the notes of imported messages kept since the state's mark (shared/core/store/imports.ts), up to the run's bound, a
 * slice at a time while the run has budget, and adds their days to the imported days to fold (`imported`), and those
 * older than SCANNERS_COUNTED_AGAIN_DAYS to the days whose people and scanners are counted again (`people_due`). A
 * note's mark is at or after the marks of its facts, so a day read up to the bound after its note was read holds them
 * all. The mark moves only when notes were read, in the same write as their days, so a run that dies reads them again.
 */
export async function openImported(
  landed: Pick<LandedImports, 'changed'>,
  state: StateWriter,
  run: { bound: number; today: string; more: () => Promise<boolean> },
): Promise<boolean> {
  const days = new Set<string>();
  let mark = state.current().imports;
  let caughtUp: boolean;
  do {
    const after = mark;
    const slice = await sliceOf(
      (limit) => landed.changed(after, run.bound, limit),
      (upTo) => landed.changed(after, upTo, Number.POSITIVE_INFINITY),
      NOTES_A_SLICE,
      run.bound,
    );
    for (const note of slice.items) for (const day of note.days) days.add(day);
    mark = slice.upTo;
    caughtUp = slice.caughtUp;
  } while (!caughtUp && (await run.more()));
  if (days.size === 0) return caughtUp;
  const current = state.current();
  const againBefore = addDays(run.today, -SCANNERS_COUNTED_AGAIN_DAYS);
  await state.write({
    imports: mark,
    imported: union(current.imported, days),
    people_due: union(
      current.people_due,
      [...days].filter((day) => day < againBefore),
    ),
  });
  return caughtUp;
}

/** The next imported days to fold, oldest first: at most `room`, none this run has taken up already. */
export function importedToRead(imported: readonly string[], taken: ReadonlySet<string>, room: number): string[] {
  return room <= 0 ? [] : imported.filter((day) => !taken.has(day)).slice(0, room);
}
