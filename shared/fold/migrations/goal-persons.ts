import { boundedMap } from '../../core/bounded-map';
import { goalDayId, goalPersonId, type GoalDay, type GoalPerson, type GoalsStore } from '../../core/store/goals';
import { settlePending } from '../goals';

/** The thread pool's 4 threads derive while other moves write. */
const MOVES_AT_ONCE = 8;

const derivedDoc = (doc: GoalPerson | GoalDay, person: string): GoalPerson | GoalDay =>
  doc.kind === 'goal-person'
    ? { ...doc, id: goalPersonId(doc.goal, person), person, derived: true }
    : { ...doc, id: goalDayId(doc.goal, person, doc.day), person, derived: true };

/**
 * Moves at most `limit` of a goal's documents keyed by a person's HMAC value to the derived id: its pending people
 * settled first, then each created under the derived id (409: done) before the old one is removed, so a run that dies
 * between leaves the old one for the next slice, which finishes it. Answers how many it found; none means the goal is done.
 * Only the fold writes these and it runs under the fold lease, so nothing races the move.
 */
export async function moveGoalPersons(
  store: GoalsStore,
  goal: string,
  derive: (old: string) => Promise<string>,
  limit: number,
): Promise<number> {
  const summary = await store.summaries.read(goal);
  if (summary !== null && summary.doc.pending.length > 0) await settlePending(store, summary.doc, summary.etag);
  const docs = await store.moves.unmoved(goal, limit);
  await boundedMap(docs, MOVES_AT_ONCE, async (doc) => {
    const moved = derivedDoc(doc, await derive(doc.person));
    await (moved.kind === 'goal-person' ? store.people.create(moved) : store.days.create(moved));
    await store.moves.remove(goal, doc.id);
  });
  return docs.length;
}
