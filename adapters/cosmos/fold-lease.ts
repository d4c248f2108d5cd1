import { FOLD_LEASE_ID, type FoldLeaseDoc, type FoldLeases } from '../../shared/core/store/fold-lease';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import type { CosmosDocuments } from './documents';

export function cosmosFoldLeases(documents: CosmosDocuments): FoldLeases {
  return {
    read: () => documents.read<FoldLeaseDoc>(VISITORS_PK, FOLD_LEASE_ID),
    create: (doc) => documents.create(doc),
    replace: (doc, etag) => documents.replace(doc, etag),
  };
}
