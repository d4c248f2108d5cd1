import type { VisitorDay } from '../../shared/core/store/activity';
import { IMPORTS_PK } from '../../shared/core/store/imports';
import type { OldDays } from '../../shared/core/store/old-days';
import type { CosmosDocuments } from './documents';

const top = (limit: number) => Math.max(1, Math.floor(limit));

/** Each filter names the partition too, since the local Cosmos server does not scope a query by it. */
export function cosmosOldDays(documents: CosmosDocuments): OldDays {
  const day = (value: string) => [{ name: '@day', value: documents.key(value) }];
  return {
    unkeyed: (on, limit) =>
      documents.query<VisitorDay>(
        `SELECT TOP ${top(limit)} * FROM c WHERE c.pk = @day AND c.kind = 'visitor-day' AND NOT IS_DEFINED(c.rekeyed)`,
        day(on),
        on,
      ),
    networks: (on, limit) =>
      documents.query<string>(
        `SELECT TOP ${top(limit)} VALUE c.network FROM c WHERE c.pk = @day AND c.kind = 'visitor-day' AND c.network != 'x'`,
        day(on),
        on,
      ),
    create: (doc) => documents.create(doc),
    remove: (on, id) => documents.remove(on, id),
    landedAfter: async (on, watermark) =>
      (
        await documents.query<string>(
          "SELECT TOP 1 VALUE c.id FROM c WHERE c.pk = @imports AND c.kind = 'import-landed' AND c._ts > @watermark AND ARRAY_CONTAINS(c.days, @day)",
          [
            { name: '@imports', value: documents.key(IMPORTS_PK) },
            { name: '@watermark', value: watermark },
            { name: '@day', value: on },
          ],
          IMPORTS_PK,
        )
      ).length > 0,
    facts: (on, limit) =>
      documents.query<{ id: string; watermark: number }>(
        `SELECT TOP ${top(limit)} c.id, c._ts AS watermark FROM c WHERE c.pk = @day AND c.kind = 'fact'`,
        day(on),
        on,
      ),
    removeFact: (on, id) => documents.remove(on, id),
  };
}
