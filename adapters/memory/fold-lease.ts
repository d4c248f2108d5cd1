import { FOLD_LEASE_ID, type FoldLeaseDoc, type FoldLeases } from '../../shared/core/store/fold-lease';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import type { MemoryDocuments } from './documents';

const resolved = <T>(value: T) => Promise.resolve(value);

export function memoryFoldLeases(documents: MemoryDocuments): FoldLeases {
  return {
    read: () => resolved(documents.read<FoldLeaseDoc>(VISITORS_PK, FOLD_LEASE_ID)),
    create: (doc) => resolved(documents.create(doc)),
    replace: (doc, etag) => resolved(documents.replace(doc, etag)),
  };
}
