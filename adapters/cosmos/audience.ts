import { WRITTEN_BEFORE_SLACK_SECONDS, type RecentFacts } from '../../shared/core/store/recent';
import type { VisitorDayPart } from '../../shared/core/store/facts';
import type { CosmosDocuments } from './documents';
import { unpackFact } from './packed-facts';

/** Every property is indexed, so the query on `_ts` finds only the facts written since, however many the day holds. */
export function cosmosRecentFacts(documents: CosmosDocuments): RecentFacts {
  return {
    partsSince: async (day, since) => {
      const written = Math.floor(since.getTime() / 1000) - WRITTEN_BEFORE_SLACK_SECONDS;
      const found = await documents.query<{ visitor_days?: VisitorDayPart[]; packed?: string }>(
        "SELECT c.visitor_days, c.packed FROM c WHERE c.kind = 'fact' AND c._ts >= @written",
        [{ name: '@written', value: written }],
        day,
      );
      return found.flatMap((fact) => unpackFact(fact).visitor_days ?? []);
    },
  };
}
