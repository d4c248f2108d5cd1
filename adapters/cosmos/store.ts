import type { Container } from '@azure/cosmos';
import type { ActivityDoc, ActivityHour, Receipt, Store, VisitorDay, VisitorRecord, VisitorsSummary } from '../../shared/store';
import { RECEIPTS_PK } from '../../shared/store/receipts';
import { tallyOf, VISITORS_SUMMARY_ID } from '../../shared/store/summary';
import { VISITORS_PK } from '../../shared/store/visitors';
import { CosmosDocuments } from './documents';
import { cosmosCounting } from './counting';
import { cosmosActivityDays } from './activity-days';
import { cosmosSubjects } from './subjects';

const oldestFirst = <T extends { pk: string; id: string }>(key: (doc: T) => string) => (a: T, b: T) =>
  key(a) === key(b) ? (a.id < b.id ? -1 : 1) : key(a) < key(b) ? -1 : 1;

/**
 * The store in one Cosmos DB container (`activity`, partition key `/pk`): visitor records and the visitors summary in
 * pk `visitors`, activity in pk `<yyyy-MM-dd>`, receipts in pk `receipts`. Point reads and conditional writes only,
 * so it holds on the local Cosmos server, which has no atomic batch.
 */
export function cosmosStore(container: Container): Store & { documents: CosmosDocuments } {
  const documents = new CosmosDocuments(container);
  const since = (kind: string) => ({
    query: 'SELECT * FROM c WHERE c.kind = @kind AND c.pk >= @since',
    parameters: (day: string) => [
      { name: '@kind', value: kind },
      { name: '@since', value: day },
    ],
  });
  const days = since('visitor-day');
  const hours = since('activity-hour');
  return {
    documents,
    source: `kept in Azure Cosmos DB (${container.database.id}/${container.id}) with no expiry for people`,
    records: {
      read: (hash) => documents.read<VisitorRecord>(VISITORS_PK, hash),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    summary: {
      read: () => documents.read<VisitorsSummary>(VISITORS_PK, VISITORS_SUMMARY_ID),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    activity: {
      read: (day, id) => documents.read<ActivityDoc>(day, id),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    receipts: {
      read: async (id) => (await documents.read<Receipt>(RECEIPTS_PK, id))?.doc ?? null,
      readMany: async (ids) => {
        const found = await documents.query<Receipt>('SELECT * FROM c WHERE ARRAY_CONTAINS(@ids, c.id)', [{ name: '@ids', value: [...ids] }], RECEIPTS_PK);
        return new Map(found.map((receipt) => [receipt.id, receipt]));
      },
      create: (doc) => documents.create(doc),
    },
    visitors: {
      tally: async (day) => tallyOf((await documents.read<VisitorsSummary>(VISITORS_PK, VISITORS_SUMMARY_ID))?.doc ?? null, day),
    },
    activityReader: {
      visitorDaysSince: async (day) =>
        (await documents.query<VisitorDay>(days.query, days.parameters(day))).sort(oldestFirst<VisitorDay>((doc) => doc.day)),
      hoursSince: async (day) => (await documents.query<ActivityHour>(hours.query, hours.parameters(day))).sort(oldestFirst<ActivityHour>((doc) => doc.hour)),
    },
    activityDays: cosmosActivityDays(documents),
    ...cosmosCounting(documents),
    subjects: cosmosSubjects(container, documents),
    stats: () => ({ ...documents.counts }),
  };
}
