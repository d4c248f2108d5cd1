import { type CohortCell, type CohortFigures, type CohortsStore } from '../../shared/core/store/cohorts';
import type { MemoryDocuments } from './documents';

/** The retention cells and figures in memory, with the same answers as the Cosmos DB adapter. */
export function memoryCohorts(documents: MemoryDocuments): CohortsStore {
  const resolved = <T>(value: T) => Promise.resolve(value);
  return {
    cells: {
      read: (pk, id) => resolved(documents.read<CohortCell>(pk, id)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    figures: {
      read: (pk, id) => resolved(documents.read<CohortFigures>(pk, id)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    since: (pk, fromMonth, fromWeek) =>
      resolved(
        documents.query<CohortFigures>(
          (doc) => doc.kind === 'cohort-figures' && doc.cohort >= (doc.span === 'month' ? fromMonth : fromWeek),
          pk,
        ),
      ),
  };
}
