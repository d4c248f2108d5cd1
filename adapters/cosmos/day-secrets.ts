import { SECRETS_PK, type ImportSecret, type Secret, type DaySecrets } from '../../shared/core/store/day-secrets';
import type { CosmosDocuments } from './documents';

export function cosmosDaySecrets(documents: CosmosDocuments): DaySecrets {
  return {
    read: async (id) => (await documents.read<Secret>(SECRETS_PK, id))?.doc ?? null,
    create: (doc) => documents.create(doc),
    days: () => documents.query<string>("SELECT VALUE c.day FROM c WHERE c.kind = 'day-secret'", [], SECRETS_PK),
    remove: (id) => documents.remove(SECRETS_PK, id),
    renew: async (id, usedAt, ttl) => {
      const kept = await documents.read<ImportSecret>(SECRETS_PK, id);
      if (kept === null) return 'gone';
      // Stale: another instance renewed it between the read and the replace.
      const renewed: ImportSecret = { ...kept.doc, used_at: usedAt, ttl };
      await documents.replace(renewed, kept.etag);
      return 'renewed';
    },
    imports: () =>
      documents.query<{ id: string; used_at?: string }>("SELECT c.id, c.used_at FROM c WHERE c.kind = 'import-secret'", [], SECRETS_PK),
  };
}
