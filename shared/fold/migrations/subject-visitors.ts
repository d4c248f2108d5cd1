import { inLanes } from '../../core/lanes';
import { subjectVisitorId, type SubjectsStore } from '../../core/subjects/documents';

/** The thread pool's 4 threads derive while other moves write. */
const MOVES_AT_ONCE = 8;

/**
 * Moves at most `limit` subject visitors' documents keyed by a person's HMAC value to the derived id: each created
 * under the derived id (409: done, the fold or an earlier run made it) before the old one is removed, so a run that
 * dies between leaves the old one for the next slice. Answers how many it found; none means every one moved.
 */
export async function moveSubjectVisitors(store: SubjectsStore, derive: (old: string) => Promise<string>, limit: number): Promise<number> {
  const docs = await store.moves.unmoved(limit);
  await inLanes(docs, MOVES_AT_ONCE, async (doc) => {
    const identity = await derive(doc.identity);
    await store.visitors.create({ ...doc, id: subjectVisitorId(doc.subject, identity), identity, derived: true });
    await store.moves.remove(doc.subject, doc.id);
  });
  return docs.length;
}
