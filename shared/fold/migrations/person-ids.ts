import type { Clock } from '../../core/ports/clock';
import { boundedMap } from '../../core/bounded-map';
import { PERSON_IDS_MIGRATION, type PersonMoves } from '../../core/store/person-moves';
import { movedRecord, moveRecord } from '../../keep/person-move';
import type { GoalsStore } from '../../core/store/goals';
import type { SubjectsStore } from '../../core/store/subjects';
import { moveGoalPersons } from './goal-persons';
import { moveCookieLinks, moveSubjectVisitors } from './subject-visitors';
import type { Migration } from './runner';

/** A derivation takes about 9 ms of a pool thread at the production cost, so a slice stays a second or two. */
const MOVES_A_SLICE = 200;

/** The thread pool's 4 threads derive while other moves write. */
const MOVES_AT_ONCE = 8;

/**
 * Moves every visitor record from its HMAC value to its derived person id, a slice at a time (docs/design.md, Identity).
 * A record a keep changed since it was read stays for a later slice; it is done once a slice finds none left.
 */
export function personIdsMigration(
  moves: PersonMoves,
  derive: (old: string) => Promise<string>,
  clock: Clock,
  goals?: GoalMoves,
): Migration {
  return {
    name: PERSON_IDS_MIGRATION,
    async slice({ number, limit }) {
      const now = clock.now().toISOString();
      // A run of this slice that died between a marker and its new record finishes it; 409 means it was.
      await boundedMap(await moves.movedBy(number), MOVES_AT_ONCE, (marker) => moves.at.create(movedRecord(marker, now)));
      const records = await moves.unmoved(Math.min(limit, MOVES_A_SLICE));
      await boundedMap(records, MOVES_AT_ONCE, async (held) =>
        moveRecord(moves.at, held, { to: await derive(held.doc.id), now, slice: number }),
      );
      if (records.length > 0) return String(number);
      return (await foldedSlice(goals, derive, Math.min(limit, MOVES_A_SLICE))) === 0 ? null : String(number);
    },
  };
}

/**
 * The documents the fold keys by a person, which move once every record has: the goals' (their store, and their names
 * as the fold has them now), the subjects' visitors and the cookie links.
 */
export interface GoalMoves {
  store: GoalsStore;
  names: () => readonly string[];
  subjects: SubjectsStore;
}

/** Goal by goal, then the subjects' visitors and the cookie links, at most `limit` documents; answers how many it found. */
async function foldedSlice(goals: GoalMoves | undefined, derive: (old: string) => Promise<string>, limit: number): Promise<number> {
  if (goals === undefined) return 0;
  let found = 0;
  for (const name of goals.names()) {
    if (found >= limit) break;
    found += await moveGoalPersons(goals.store, name, derive, limit - found);
  }
  if (found < limit) found += await moveSubjectVisitors(goals.subjects, derive, limit - found);
  return found < limit ? found + (await moveCookieLinks(goals.subjects, derive, limit - found)) : found;
}
