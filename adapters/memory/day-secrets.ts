import { SECRETS_PK, type DaySecret, type ImportSecret, type Secret, type DaySecrets } from '../../shared/core/store/day-secrets';
import type { MemoryDocuments } from './documents';

export function memoryDaySecrets(documents: MemoryDocuments): DaySecrets {
  return {
    read: async (id) => documents.read<Secret>(SECRETS_PK, id)?.doc ?? null,
    create: async (doc) => documents.create(doc),
    days: async () => documents.query<DaySecret>((doc) => doc.kind === 'day-secret', SECRETS_PK).map((doc) => doc.day),
    remove: async (id) => documents.delete(SECRETS_PK, id),
    renew: async (id, usedAt, ttl) => {
      const kept = documents.read<ImportSecret>(SECRETS_PK, id);
      if (kept === null) return 'gone';
      // Stale: another instance renewed it between the read and the replace.
      const renewed: ImportSecret = { ...kept.doc, used_at: usedAt, ttl };
      documents.replace(renewed, kept.etag);
      return 'renewed';
    },
    imports: async () =>
      documents.query<ImportSecret>((doc) => doc.kind === 'import-secret', SECRETS_PK).map((doc) => ({ id: doc.id, used_at: doc.used_at })),
  };
}
