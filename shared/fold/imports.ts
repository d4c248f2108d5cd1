import { addDays } from '../core/days';
import type { LandedImports } from '../core/store/imports';
import { BOTS_COUNTED_AGAIN_DAYS } from './people';
import { sliceOf } from './slice';
import type { StateWriter } from './state';

/** A backlog of years moves a few days a round. */
export const IMPORTED_AT_ONCE = 8;

const NOTES_A_SLICE = 2_000;

const union = (held: readonly string[], more: Iterable<string>): string[] => [...new Set([...held, ...more])].sort();

/**
 * A note's watermark is at or after its facts', so a day read to the bound after its note holds them all.
 * The watermark moves in the same write as the days, so a run that dies reads the notes again.
 */
export async function openImported(
  landed: Pick<LandedImports, 'changed'>,
  state: StateWriter,
  run: { bound: number; today: string; more: () => Promise<boolean> },
): Promise<boolean> {
  const days = new Set<string>();
  let watermark = state.current().imports;
  let caughtUp: boolean;
  do {
    const after = watermark;
    const slice = await sliceOf(
      (limit) => landed.changed(after, run.bound, limit),
      (upTo) => landed.changed(after, upTo, Number.POSITIVE_INFINITY),
      NOTES_A_SLICE,
      run.bound,
    );
    for (const note of slice.items) for (const day of note.days) days.add(day);
    watermark = slice.upTo;
    caughtUp = slice.caughtUp;
  } while (!caughtUp && (await run.more()));
  if (days.size === 0) return caughtUp;
  const current = state.current();
  const againBefore = addDays(run.today, -BOTS_COUNTED_AGAIN_DAYS);
  await state.write({
    imports: watermark,
    imported: union(current.imported, days),
    people_due: union(
      current.people_due,
      [...days].filter((day) => day < againBefore),
    ),
  });
  return caughtUp;
}

/** Oldest first, at most `room`, none this run took up already. */
export function importedToRead(imported: readonly string[], taken: ReadonlySet<string>, room: number): string[] {
  return room <= 0 ? [] : imported.filter((day) => !taken.has(day)).slice(0, room);
}
