import { SESSIONS_PK, type AdminSession, type AdminSessions } from '../../shared/core/store/sessions';
import type { CosmosDocuments } from './documents';

export function cosmosSessions(documents: CosmosDocuments): AdminSessions {
  return {
    read: (id) => documents.read<AdminSession>(SESSIONS_PK, id),
    create: (doc) => documents.create(doc),
    replace: (doc, etag) => documents.replace(doc, etag),
  };
}
