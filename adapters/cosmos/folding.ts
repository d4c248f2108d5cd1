import type { FoldingStore } from '../../shared/store';
import type { ActivityDoc } from '../../shared/store/activity';
import type { Fact } from '../../shared/store/facts';
import { FOLD_STATE_ID, type FoldState } from '../../shared/store/fold';
import { VISITORS_SUMMARY_ID, type VisitorsSummary } from '../../shared/store/summary';
import { VISITORS_PK, type RecordChange } from '../../shared/store/visitors';
import { VISITS_SUMMARY_ID, type VisitsSummary } from '../../shared/store/visits';
import type { CosmosDocuments } from './documents';

/** The document whose writes read the server's clock: its `_ts` is the store's time now. */
const STORE_CLOCK = { id: 'store-clock', pk: VISITORS_PK, kind: 'store-clock' };

const RECORDS = "c.kind = 'visitor-record'";

/** A conditional slot on one document of the `visitors` partition. */
const slot = <T extends { id: string; pk: string }>(documents: CosmosDocuments, id: string) => ({
  read: () => documents.read<T>(VISITORS_PK, id),
  create: (doc: T) => documents.create(doc),
  replace: (doc: T, etag: string) => documents.replace(doc, etag),
});

/**
 * The fold's ports on Cosmos DB: point reads and If-Match replaces of the summaries and the fold state, and queries
 * scoped to one partition: a day's facts between two `_ts` marks, the documents a day's facts touch, the day's
 * visits and the records' aggregates (COUNT only; the local server has no GROUP BY). The settled mark is the server's
 * `_ts` now, read from a write, less `settleSeconds`: long enough for a write in flight to land and be seen.
 */
export function cosmosFolding(documents: CosmosDocuments, settleSeconds: number): Omit<FoldingStore, 'subjects'> {
  const count = async (query: string, parameters: { name: string; value: string }[], pk: string) => {
    const [value] = await documents.query<number>(query, parameters, pk);
    if (typeof value !== 'number') throw new Error('an aggregate query answered something that is not a count');
    return value;
  };
  return {
    marks: { settled: async () => (await documents.stamp(STORE_CLOCK)) - settleSeconds },
    foldState: slot<FoldState>(documents, FOLD_STATE_ID),
    summary: slot<VisitorsSummary>(documents, VISITORS_SUMMARY_ID),
    visits: slot<VisitsSummary>(documents, VISITS_SUMMARY_ID),
    facts: {
      on: (day, after, upTo) =>
        documents.queryMarked<Fact>(
          "SELECT * FROM c WHERE c.kind = 'fact' AND c._ts > @after AND c._ts <= @upTo",
          [
            { name: '@after', value: after },
            { name: '@upTo', value: upTo },
          ],
          day,
        ),
    },
    activity: {
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
      touched: (day, tokens, hourIds) =>
        documents.queryMarked<ActivityDoc>(
          "SELECT * FROM c WHERE (c.kind = 'visitor-day' AND ARRAY_CONTAINS(@tokens, c.token)) OR (c.kind = 'activity-hour' AND ARRAY_CONTAINS(@hours, c.id))",
          [
            { name: '@tokens', value: [...tokens] },
            { name: '@hours', value: [...hourIds] },
          ],
          day,
        ),
      visitsOn: (day) => count("SELECT VALUE COUNT(1) FROM c WHERE c.kind = 'visitor-day' AND c.visit = true", [], day),
    },
    recordCounts: {
      changed: (after, upTo) =>
        documents.query<RecordChange>(
          `SELECT c.who, c.first_seen, c.counted_on, c.moved_days, c.counts_changed_at FROM c WHERE ${RECORDS} AND c._ts > @after AND c._ts <= @upTo`,
          [
            { name: '@after', value: after },
            { name: '@upTo', value: upTo },
          ],
          VISITORS_PK,
        ),
      countsOn: async (day) => {
        const on = [{ name: '@day', value: day }];
        const [people, scanners] = await Promise.all([
          count(`SELECT VALUE COUNT(1) FROM c WHERE ${RECORDS} AND c.who = 'people' AND c.counted_on = @day`, on, VISITORS_PK),
          count(`SELECT VALUE COUNT(1) FROM c WHERE ${RECORDS} AND c.who = 'scanners' AND c.first_seen = @day`, on, VISITORS_PK),
        ]);
        return { people, scanners };
      },
    },
  };
}
