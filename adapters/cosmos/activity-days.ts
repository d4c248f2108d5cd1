import type { VisitorDay } from '../../shared/store/activity';
import { firstSeenFirst, type ActivityDays } from '../../shared/store/activity-days';
import type { CosmosDocuments } from './documents';

/**
 * One day's visitor-days from Cosmos DB: a query scoped to the day's partition, so it touches that partition alone. The
 * partition is named in the filter too, since the local Cosmos server does not scope a query by its partition key.
 */
export function cosmosActivityDays(documents: CosmosDocuments): ActivityDays {
  const query = 'SELECT * FROM c WHERE c.pk = @day AND c.kind = @kind';
  return {
    retention: 'kept in Azure Cosmos DB with no expiry',
    visitorDaysOn: async (day) =>
      (
        await documents.query<VisitorDay>(
          query,
          [
            { name: '@day', value: day },
            { name: '@kind', value: 'visitor-day' },
          ],
          day,
        )
      ).sort(firstSeenFirst),
  };
}
