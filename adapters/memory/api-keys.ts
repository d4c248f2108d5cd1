import { API_KEYS_PK, type ApiKey, type ApiKeys, type ApiKeyUse } from '../../shared/core/store/api-keys';
import { memoryByRef } from './by-ref';
import type { MemoryDocuments } from './documents';

export const memoryApiKeys = (documents: MemoryDocuments): ApiKeys => ({
  ...memoryByRef<ApiKey>(documents, 'api-key', API_KEYS_PK),
  uses: {
    read: async (id) => documents.read<ApiKeyUse>(API_KEYS_PK, id),
    create: async (doc) => documents.create(doc),
    replace: async (doc, etag) => documents.replace(doc, etag),
  },
});
