import { boundedMap } from '../../core/bounded-map';
import { subjectVisitorId, type SubjectsStore } from '../../core/store/subjects';

/** The thread pool's 4 threads derive while other moves write. */
const MOVES_AT_ONCE = 8;

/**
 * Moves at most `limit` subject visitors' documents keyed by a person's HMAC value to the derived id: each created
 * under the derived id (409: done, the fold or an earlier run made it) before the old one is removed, so a run that
 * dies between leaves the old one for the next slice. Answers how many it found; none means every one moved.
 */
export async function moveSubjectVisitors(store: SubjectsStore, derive: (old: string) => Promise<string>, limit: number): Promise<number> {
  const docs = await store.moves.unmoved(limit);
  await boundedMap(docs, MOVES_AT_ONCE, async (doc) => {
    const identity = await derive(doc.identity);
    await store.visitors.create({ ...doc, id: subjectVisitorId(doc.subject, identity), identity, derived: true });
    await store.moves.remove(doc.subject, doc.id);
  });
  return docs.length;
}

/**
 * Replaces (If-Match) at most `limit` cookie links holding a person's HMAC value with the derived id. Only the beacon
 * writes links besides, and it only creates them, so a replace that finds another version was a run before this one.
 * A replace renews the link's time-to-live, by at most the cookie's life. Answers how many it found.
 */
export async function moveCookieLinks(store: SubjectsStore, derive: (old: string) => Promise<string>, limit: number): Promise<number> {
  const links = await store.cookies.unmoved(limit);
  await boundedMap(links, MOVES_AT_ONCE, async ({ doc, etag }) =>
    store.cookies.replace({ ...doc, identity: await derive(doc.identity), derived: true }, etag),
  );
  return links.length;
}
