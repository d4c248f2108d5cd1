import type { VisitorDay } from '../../shared/core/store/activity';
import type { ActivityDays } from '../../shared/core/store/activity-days';
import type { CosmosDocuments } from './documents';

const DAY = "c.pk = @day AND c.kind = 'visitor-day'";

/**
 * A composite index on (first_seen, id) makes a page cost its rows, whatever the day holds.
 * The filter names the partition too, since the local Cosmos server does not scope a query by it.
 */
export function cosmosActivityDays(documents: CosmosDocuments, name = 'Azure Cosmos DB'): ActivityDays {
  return {
    retention: `kept in ${name} with no expiry`,
    pageOn: (day, after, limit) =>
      documents.query<VisitorDay>(
        `SELECT TOP ${Math.max(1, Math.floor(limit))} * FROM c WHERE ${DAY}${
          after === null ? '' : ' AND (c.first_seen > @seen OR (c.first_seen = @seen AND c.id > @id))'
        } ORDER BY c.first_seen ASC, c.id ASC`,
        [
          { name: '@day', value: documents.key(day) },
          ...(after === null
            ? []
            : [
                { name: '@seen', value: after.first_seen },
                { name: '@id', value: after.id },
              ]),
        ],
        day,
      ),
    ofTokens: (day, tokens) =>
      documents.query<VisitorDay>(
        `SELECT * FROM c WHERE ${DAY} AND ARRAY_CONTAINS(@tokens, c.token)`,
        [
          { name: '@day', value: documents.key(day) },
          { name: '@tokens', value: [...tokens] },
        ],
        day,
      ),
  };
}
