import { cohortsPk, type CohortCell, type CohortFigures, type CohortsStore } from '../../shared/core/store/cohorts';
import type { CosmosDocuments } from './documents';

export function cosmosCohorts(documents: CosmosDocuments): CohortsStore {
  return {
    cells: {
      read: (id) => documents.read<CohortCell>(cohortsPk(), id),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    figures: {
      read: (id) => documents.read<CohortFigures>(cohortsPk(), id),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    since: (fromMonth, fromWeek) =>
      documents.query<CohortFigures>(
        "SELECT * FROM c WHERE c.kind = 'cohort-figures' AND ((c.span = 'month' AND c.cohort >= @month) OR (c.span = 'week' AND c.cohort >= @week))",
        [
          { name: '@month', value: fromMonth },
          { name: '@week', value: fromWeek },
        ],
        cohortsPk(),
      ),
  };
}
