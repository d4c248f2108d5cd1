import type { Store } from '../../shared/store';
import type { PendingChange, RecordCensus } from '../../shared/store/reconcile';
import type { VisitorRecord } from '../../shared/store/visitors';
import { VISITORS_PK } from '../../shared/store/visitors';
import { VISITS_SUMMARY_ID, type VisitsSummary } from '../../shared/store/visits';
import type { CosmosDocuments } from './documents';

const RECORDS = "c.kind = 'visitor-record'";

/**
 * The counting ports on Cosmos DB: the visits summary by point read and If-Match replace, and the census of the
 * visitor records by aggregate queries in the `visitors` partition (COUNT and MIN; the local server has no GROUP BY, so
 * new people by day come from one query of the window's `counted_on` values, bounded by the new people in the window).
 */
export function cosmosCounting(documents: CosmosDocuments): Pick<Store, 'visits' | 'census' | 'visitorDayChanges'> {
  const value = async <T>(query: string, parameters: { name: string; value: string | number }[] = []) =>
    (await documents.query<T>(query, parameters, VISITORS_PK))[0] ?? null;
  return {
    visits: {
      read: () => documents.read<VisitsSummary>(VISITORS_PK, VISITS_SUMMARY_ID),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    visitorDayChanges: {
      changedSince: async (mark) => {
        const changed = await documents.query<{ day: string; ts: number }>(
          "SELECT c.day, c._ts AS ts FROM c WHERE c.kind = 'visitor-day' AND c._ts > @mark",
          [{ name: '@mark', value: mark }],
        );
        return { days: [...new Set(changed.map((doc) => doc.day))].sort(), mark: changed.reduce((max, doc) => Math.max(max, doc.ts), mark) };
      },
    },
    census: {
      count: async (since): Promise<RecordCensus> => {
        const [people, scanners, first, window] = await Promise.all([
          value<number>(`SELECT VALUE COUNT(1) FROM c WHERE ${RECORDS} AND c.who = 'people'`),
          value<number>(`SELECT VALUE COUNT(1) FROM c WHERE ${RECORDS} AND c.who = 'scanners'`),
          value<string>(`SELECT VALUE MIN(c.counted_on) FROM c WHERE ${RECORDS} AND IS_STRING(c.counted_on)`),
          documents.query<{ counted_on: string }>(
            `SELECT c.counted_on FROM c WHERE ${RECORDS} AND c.who = 'people' AND c.counted_on >= @since`,
            [{ name: '@since', value: since }],
            VISITORS_PK,
          ),
        ]);
        const newByDay: Record<string, number> = {};
        for (const { counted_on: day } of window) newByDay[day] = (newByDay[day] ?? 0) + 1;
        if (typeof people !== 'number' || typeof scanners !== 'number' || (first !== null && typeof first !== 'string')) {
          throw new Error('the census of the visitor records answered something that is not a count');
        }
        return { people, scanners, first_counted_on: first, new_by_day: newByDay };
      },
      pendingSince: async (since): Promise<PendingChange[]> => {
        const written = await documents.query<Pick<VisitorRecord, 'pending'>>(
          `SELECT c.pending FROM c WHERE ${RECORDS} AND c._ts >= @since`,
          [{ name: '@since', value: since }],
          VISITORS_PK,
        );
        return written.flatMap((record) => Object.entries(record.pending ?? {}).map(([message, { at, ...delta }]) => ({ message, delta, at })));
      },
    },
  };
}
