import { LINKS_PK, type SharedLink, type SharedLinks } from '../../shared/core/store/links';
import { memoryByRef } from './by-ref';
import type { MemoryDocuments } from './documents';

export const memoryLinks = (documents: MemoryDocuments): SharedLinks => memoryByRef<SharedLink>(documents, 'shared-link', LINKS_PK);
