import { cohortsPk, type CohortCell, type CohortFigures, type CohortsStore } from '../../shared/core/store/cohorts';
import type { MemoryDocuments } from './documents';

export function memoryCohorts(documents: MemoryDocuments): CohortsStore {
  const resolved = <T>(value: T) => Promise.resolve(value);
  return {
    cells: {
      read: (id) => resolved(documents.read<CohortCell>(cohortsPk(), id)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    figures: {
      read: (id) => resolved(documents.read<CohortFigures>(cohortsPk(), id)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    since: (fromMonth, fromWeek) =>
      resolved(
        documents.query<CohortFigures>(
          (doc) => doc.kind === 'cohort-figures' && doc.cohort >= (doc.span === 'month' ? fromMonth : fromWeek),
          cohortsPk(),
        ),
      ),
  };
}
