import { SECRETS_PK, type DaySecret, type Secret, type DaySecrets } from '../../shared/core/store/day-secrets';
import type { MemoryDocuments } from './documents';

export function memoryDaySecrets(documents: MemoryDocuments): DaySecrets {
  return {
    read: async (id) => documents.read<Secret>(SECRETS_PK, id)?.doc ?? null,
    create: async (doc) => documents.create(doc),
    days: async () => documents.query<DaySecret>((doc) => doc.kind === 'day-secret', SECRETS_PK).map((doc) => doc.day),
    remove: async (id) => documents.delete(SECRETS_PK, id),
  };
}
