import { LINKS_PK, type SharedLink, type SharedLinks } from '../../shared/core/store/links';
import { cosmosByRef } from './by-ref';
import type { CosmosDocuments } from './documents';

export const cosmosLinks = (documents: CosmosDocuments): SharedLinks => cosmosByRef<SharedLink>(documents, 'shared-link', LINKS_PK);
