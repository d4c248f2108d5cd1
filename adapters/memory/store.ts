import type { ActivityDoc, ActivityHour, Receipt, Store, VisitorDay, VisitorRecord, VisitorsSummary } from '../../shared/store';
import { RECEIPTS_PK } from '../../shared/store/receipts';
import { tallyOf, VISITORS_SUMMARY_ID } from '../../shared/store/summary';
import { VISITORS_PK } from '../../shared/store/visitors';
import { MemoryDocuments } from './documents';
import { memoryCounting } from './counting';
import { memoryActivityDays } from './activity-days';
import { memorySubjects } from './subjects';

/** What the memory store's `source` says, so the count never passes memory off as kept. */
export const MEMORY_SOURCE = 'kept in memory: this host has no document store, and the records are lost on restart';

const oldestFirst = <T extends { id: string }>(key: (doc: T) => string) => (a: T, b: T) =>
  key(a) === key(b) ? (a.id < b.id ? -1 : 1) : key(a) < key(b) ? -1 : 1;

/** The store in this process's memory, with the same behaviour as the Cosmos DB adapter. */
export function memoryStore(documents = new MemoryDocuments()): Store & { documents: MemoryDocuments } {
  const resolved = <T>(value: T) => Promise.resolve(value);
  return {
    documents,
    source: MEMORY_SOURCE,
    records: {
      read: (hash) => resolved(documents.read<VisitorRecord>(VISITORS_PK, hash)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    summary: {
      read: () => resolved(documents.read<VisitorsSummary>(VISITORS_PK, VISITORS_SUMMARY_ID)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    activity: {
      read: (day, id) => resolved(documents.read<ActivityDoc>(day, id)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    receipts: {
      read: (id) => resolved(documents.read<Receipt>(RECEIPTS_PK, id)?.doc ?? null),
      readMany: (ids) => {
        const wanted = new Set(ids);
        const found = documents.query<Receipt>((doc) => doc.pk === RECEIPTS_PK && wanted.has(doc.id));
        return resolved(new Map(found.map((receipt) => [receipt.id, receipt])));
      },
      create: (doc) => resolved(documents.create(doc)),
    },
    visitors: {
      tally: (since) => resolved(tallyOf(documents.read<VisitorsSummary>(VISITORS_PK, VISITORS_SUMMARY_ID)?.doc ?? null, since)),
    },
    activityReader: {
      visitorDaysSince: (since) =>
        resolved(documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day' && doc.pk >= since).sort(oldestFirst<VisitorDay>((doc) => doc.day))),
      hoursSince: (since) =>
        resolved(documents.query<ActivityHour>((doc) => doc.kind === 'activity-hour' && doc.pk >= since).sort(oldestFirst<ActivityHour>((doc) => doc.hour))),
    },
    activityDays: memoryActivityDays(documents),
    ...memoryCounting(documents),
    subjects: memorySubjects(documents),
    stats: () => ({ ...documents.counts }),
  };
}
