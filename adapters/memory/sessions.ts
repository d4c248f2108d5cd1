import { SESSIONS_PK, type AdminSession, type AdminSessions } from '../../shared/core/store/sessions';
import type { MemoryDocuments } from './documents';

export function memorySessions(documents: MemoryDocuments): AdminSessions {
  return {
    read: async (id) => documents.read<AdminSession>(SESSIONS_PK, id),
    create: async (doc) => documents.create(doc),
    replace: async (doc, etag) => documents.replace(doc, etag),
  };
}
