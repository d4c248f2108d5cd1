import { API_KEYS_PK, type ApiKey, type ApiKeys, type ApiKeyUse } from '../../shared/core/store/api-keys';
import { cosmosByRef } from './by-ref';
import type { CosmosDocuments } from './documents';

export const cosmosApiKeys = (documents: CosmosDocuments): ApiKeys => ({
  ...cosmosByRef<ApiKey>(documents, 'api-key', API_KEYS_PK),
  uses: {
    read: (id) => documents.read<ApiKeyUse>(API_KEYS_PK, id),
    create: (doc) => documents.create(doc),
    replace: (doc, etag) => documents.replace(doc, etag),
  },
});
