import { addDays } from '../core/days';
import type { Versioned } from '../core/store/documents';
import type { FoldState, FoldStates } from '../core/store/fold';
import { tried } from './tries';
import { FoldRaced, conditionalWriteOnce } from '../core/store/conditional-write';
import { sameJson } from '../core/same-json';

export interface StateWriter {
  current(): FoldState;
  /** Nothing when the fields change nothing; a lost race throws FoldRaced. */
  write(fields: Partial<FoldState>): Promise<void>;
}

/** Under the fold lease no other fold writes it, so a changed version means the lease was lost and the run stops. */
export function stateWriter(slot: FoldStates, read: Versioned<FoldState> | null, begun: FoldState): StateWriter {
  let held: Versioned<FoldState> | null | undefined = read;
  let state = begun;
  return {
    current: () => state,
    async write(fields) {
      const next = { ...state, ...fields };
      state = next;
      const once = async () => {
        // A write whose answer was lost may have landed, so the version is read again.
        held = held === undefined ? await slot.read() : held;
        if (held !== null && sameJson(held.doc, next)) return;
        const before = held;
        held = undefined;
        await conditionalWriteOnce(slot, { before: before?.doc ?? null, etag: before?.etag ?? null, after: next }, 'fold state');
        held = await slot.read();
      };
      await tried(once, (error) => !(error instanceof FoldRaced));
    },
  };
}

/** Fills the fields an older state lacks; days from before rollups are to be built, and tomorrow on is rolled up as it comes. */
export function upgraded(state: FoldState, today: string): FoldState {
  const before = state as Partial<FoldState>;
  const imports = before.imports === undefined ? { imports: 0, imported: [], people_due: [] } : {};
  // A fold that began before month rollups and filter cells moves them from tomorrow, the first whole day it sees.
  const periods = {
    ...(before.periods_from === undefined ? { periods_from: addDays(today, 1) } : {}),
    // Year rollups came after the months, so older years are read from the months.
    ...(before.years_from === undefined ? { years_from: addDays(today, 1) } : {}),
  };
  if (before.rollups_from !== undefined) return { ...state, ...imports, ...periods };
  return { ...state, visits_due: [], rollups_from: addDays(today, 1), build: today, behind: null, ...imports, ...periods };
}
