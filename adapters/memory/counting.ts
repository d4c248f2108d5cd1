import type { Store, VisitorDay } from '../../shared/store';
import type { PendingChange, RecordCensus } from '../../shared/store/reconcile';
import type { VisitorRecord } from '../../shared/store/visitors';
import { VISITORS_PK } from '../../shared/store/visitors';
import { VISITS_SUMMARY_ID, type VisitsSummary } from '../../shared/store/visits';
import type { MemoryDocuments } from './documents';

const records = (documents: MemoryDocuments, where: (record: VisitorRecord) => boolean) =>
  documents.query<VisitorRecord>((doc) => doc.pk === VISITORS_PK && doc.kind === 'visitor-record' && where(doc));

/** The counting ports in memory: the visits summary, and the census of the visitor records (each count one query). */
export function memoryCounting(documents: MemoryDocuments): Pick<Store, 'visits' | 'census' | 'visitorDayChanges'> {
  const resolved = <T>(value: T) => Promise.resolve(value);
  return {
    visits: {
      read: () => resolved(documents.read<VisitsSummary>(VISITORS_PK, VISITS_SUMMARY_ID)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    visitorDayChanges: {
      // In memory the mark is when keep-hits last applied a message to the document: every write adds one.
      changedSince: (mark) => {
        const written = (doc: VisitorDay) => Math.max(0, ...Object.values(doc.applied));
        const changed = documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day' && written(doc) > mark);
        return resolved({ days: [...new Set(changed.map((doc) => doc.day))].sort(), mark: changed.reduce((max, doc) => Math.max(max, written(doc)), mark) });
      },
    },
    census: {
      count: (since) => {
        const people = records(documents, (record) => record.who === 'people').length;
        const scanners = records(documents, (record) => record.who === 'scanners').length;
        const counted = records(documents, (record) => record.counted_on !== null).map((record) => record.counted_on!).sort();
        const newByDay: Record<string, number> = {};
        for (const record of records(documents, (one) => one.who === 'people' && one.counted_on !== null && one.counted_on >= since)) {
          newByDay[record.counted_on!] = (newByDay[record.counted_on!] ?? 0) + 1;
        }
        return resolved<RecordCensus>({ people, scanners, first_counted_on: counted[0] ?? null, new_by_day: newByDay });
      },
      pendingSince: (since) => {
        const written = records(documents, (record) => Object.values(record.pending).some((change) => change.at >= since));
        return resolved<PendingChange[]>(
          written.flatMap((record) => Object.entries(record.pending).map(([message, { at, ...delta }]) => ({ message, delta, at }))),
        );
      },
    },
  };
}
