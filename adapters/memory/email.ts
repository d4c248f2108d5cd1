import { EMAIL_PK, type EmailStore } from '../../shared/core/store/email';
import type { MemoryDocuments } from './documents';

const slot = <T extends { id: string; pk: string }>(documents: MemoryDocuments) => ({
  read: async (id: string) => documents.read<T>(EMAIL_PK, id),
  create: async (doc: T) => documents.create(doc),
  replace: async (doc: T, etag: string) => documents.replace(doc, etag),
});

export const memoryEmail = (documents: MemoryDocuments): EmailStore => ({
  recipients: slot(documents),
  tokens: slot(documents),
  claims: slot(documents),
  alerts: slot(documents),
});
