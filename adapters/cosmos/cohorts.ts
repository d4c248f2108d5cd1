import { type CohortCell, type CohortFigures, type CohortsStore } from '../../shared/core/store/cohorts';
import type { CosmosDocuments } from './documents';

/** The retention cells and figures on Cosmos DB: point reads and If-Match replaces for the fold, one partition query for a read. */
export function cosmosCohorts(documents: CosmosDocuments): CohortsStore {
  return {
    cells: {
      read: (pk, id) => documents.read<CohortCell>(pk, id),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    figures: {
      read: (pk, id) => documents.read<CohortFigures>(pk, id),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    since: (pk, fromMonth, fromWeek) =>
      documents.query<CohortFigures>(
        "SELECT * FROM c WHERE c.kind = 'cohort-figures' AND ((c.span = 'month' AND c.cohort >= @month) OR (c.span = 'week' AND c.cohort >= @week))",
        [
          { name: '@month', value: fromMonth },
          { name: '@week', value: fromWeek },
        ],
        pk,
      ),
  };
}
