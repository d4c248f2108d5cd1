import type { Conditional, Versioned } from '../../shared/core/store/documents';
import type { CosmosDocuments } from './documents';

/** Documents of one kind in one partition, read by id or by their ref: shared links and API keys. */
export function cosmosByRef<T extends { id: string; pk: string; kind: string; ref: string }>(
  documents: CosmosDocuments,
  kind: T['kind'],
  pk: string,
): Conditional<T, [id: string]> & { byRef(ref: string): Promise<Versioned<T> | null>; list(): Promise<T[]> } {
  const kindIs = { name: '@kind', value: kind };
  return {
    read: (id) => documents.read<T>(pk, id),
    create: (doc) => documents.create(doc),
    replace: (doc, etag) => documents.replace(doc, etag),
    byRef: async (ref) =>
      (
        await documents.queryMarked<T>('SELECT * FROM c WHERE c.kind = @kind AND c.ref = @ref', [kindIs, { name: '@ref', value: ref }], pk)
      )[0] ?? null,
    list: () => documents.query<T>('SELECT * FROM c WHERE c.kind = @kind', [kindIs], pk),
  };
}
