import type { FoldingStore, Watermarked } from '../../shared/core/store';
import type { ActivityDoc, VisitorDay } from '../../shared/core/store/activity';
import { DAY_ROLLUP_ID, type DayRollup } from '../../shared/core/store/rollups';
import type { Fact } from '../../shared/core/store/facts';
import type { PeriodRollup } from '../../shared/core/store/periods';
import { FOLD_STATE_ID, type FoldState } from '../../shared/core/store/fold';
import { VISITORS_SUMMARY_ID, type VisitorsSummary } from '../../shared/core/store/summary';
import { VISITORS_PK, type RecordChange } from '../../shared/core/store/visitors';
import { VISITS_SUMMARY_ID, type VisitsSummary } from '../../shared/core/store/visits';
import type { CosmosDocuments } from './documents';
import { IMPORTS_PK } from '../../shared/core/store/imports';
import { unpackFact } from './packed-facts';

/** Its `_ts` after a write is the store's time now. */
const STORE_CLOCK = { id: 'store-clock', pk: VISITORS_PK, kind: 'store-clock' };

const RECORDS = "c.kind = 'visitor-record'";

const FACTS_BETWEEN = "c.kind = 'fact' AND c._ts > @after AND c._ts <= @upTo";

const between = (after: number, upTo: number) => [
  { name: '@after', value: after },
  { name: '@upTo', value: upTo },
];

const unpacked = (facts: Watermarked<Fact>[]) => facts.map((fact) => ({ ...fact, doc: unpackFact(fact.doc) }));

/** An infinite limit reads them all. */
const top = (limit: number) => (Number.isFinite(limit) ? `TOP ${Math.max(1, Math.floor(limit))}` : '');

const slot = <T extends { id: string; pk: string }>(documents: CosmosDocuments, id: string) => ({
  read: () => documents.read<T>(VISITORS_PK, id),
  create: (doc: T) => documents.create(doc),
  replace: (doc: T, etag: string) => documents.replace(doc, etag),
});

/**
 * Every query is scoped to one partition, and aggregates are COUNT only since the local server has no GROUP BY.
 * The settled watermark is the server's `_ts` less `settleSeconds`, long enough for a write in flight to land.
 */
export function cosmosFolding(
  documents: CosmosDocuments,
  settleSeconds: number,
): Omit<FoldingStore, 'subjects' | 'foldLease' | 'migrations' | 'goals' | 'cohorts'> {
  const count = async (query: string, parameters: { name: string; value: string }[], pk: string) => {
    const [value] = await documents.query<number>(query, parameters, pk);
    if (typeof value !== 'number') throw new Error('an aggregate query answered something that is not a count');
    return value;
  };
  return {
    watermarks: { settled: async () => (await documents.stamp(STORE_CLOCK)) - settleSeconds },
    foldState: slot<FoldState>(documents, FOLD_STATE_ID),
    visitorsSummary: slot<VisitorsSummary>(documents, VISITORS_SUMMARY_ID),
    visits: slot<VisitsSummary>(documents, VISITS_SUMMARY_ID),
    facts: {
      on: async (day, after, upTo) =>
        unpacked(await documents.queryMarked<Fact>(`SELECT * FROM c WHERE ${FACTS_BETWEEN}`, between(after, upTo), day)),
      firstOn: async (day, after, upTo, limit) =>
        unpacked(
          await documents.queryMarked<Fact>(
            `SELECT ${top(limit)} * FROM c WHERE ${FACTS_BETWEEN} ORDER BY c._ts`,
            between(after, upTo),
            day,
          ),
        ),
    },
    rollups: {
      read: (day) => documents.read<DayRollup>(day, DAY_ROLLUP_ID),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    periods: {
      read: (pk, id) => documents.read<PeriodRollup>(pk, id),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    visitorDayPages: {
      byToken: (day, afterToken, limit) =>
        documents.query<VisitorDay>(
          `SELECT ${top(limit)} * FROM c WHERE c.kind = 'visitor-day' AND c.token > @after ORDER BY c.token ASC, c.id ASC`,
          [{ name: '@after', value: afterToken }],
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
    landed: {
      changed: (after, upTo, limit) =>
        documents.query<{ days: string[]; watermark: number }>(
          `SELECT ${top(limit)} c.days, c._ts AS watermark FROM c WHERE c.kind = 'import-landed' AND c._ts > @after AND c._ts <= @upTo ORDER BY c._ts`,
          between(after, upTo),
          IMPORTS_PK,
        ),
    },
    recordCounts: {
      changed: async (after, upTo, limit) =>
        (
          await documents.query<RecordChange & { watermark: number }>(
            `SELECT ${top(limit)} c.who, c.first_seen, c.counted_on, c.moved_days, c.counts_changed_at, c._ts AS watermark FROM c WHERE ${RECORDS} AND c._ts > @after AND c._ts <= @upTo ORDER BY c._ts`,
            between(after, upTo),
            VISITORS_PK,
          )
        ).map((change) => ({ ...change, moved_days: change.moved_days ?? [] })),
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
