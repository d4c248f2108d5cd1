import { EMAIL_PK, type EmailStore } from '../../shared/core/store/email';
import type { CosmosDocuments } from './documents';

const slot = <T extends { id: string; pk: string }>(documents: CosmosDocuments) => ({
  read: (id: string) => documents.read<T>(EMAIL_PK, id),
  create: (doc: T) => documents.create(doc),
  replace: (doc: T, etag: string) => documents.replace(doc, etag),
});

export const cosmosEmail = (documents: CosmosDocuments): EmailStore => ({
  recipients: slot(documents),
  tokens: slot(documents),
  claims: slot(documents),
  alerts: slot(documents),
});
