import { SECRETS_PK, type Secret, type DaySecrets } from '../../shared/core/store/day-secrets';
import type { CosmosDocuments } from './documents';

export function cosmosDaySecrets(documents: CosmosDocuments): DaySecrets {
  return {
    read: async (id) => (await documents.read<Secret>(SECRETS_PK, id))?.doc ?? null,
    create: (doc) => documents.create(doc),
    days: () => documents.query<string>("SELECT VALUE c.day FROM c WHERE c.kind = 'day-secret'", [], SECRETS_PK),
    remove: (id) => documents.remove(SECRETS_PK, id),
  };
}
