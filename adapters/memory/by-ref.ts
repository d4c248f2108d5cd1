import type { Conditional, Versioned } from '../../shared/core/store/documents';
import type { MemoryDocuments } from './documents';

/** Documents of one kind in one partition, read by id or by their ref: shared links and API keys. */
export function memoryByRef<T extends { id: string; pk: string; kind: string; ref: string }>(
  documents: MemoryDocuments,
  kind: T['kind'],
  pk: string,
): Conditional<T, [id: string]> & { byRef(ref: string): Promise<Versioned<T> | null>; list(): Promise<T[]> } {
  const found = (where: (doc: T) => boolean) => documents.queryMarked<T>((doc) => doc.kind === kind && where(doc), pk);
  return {
    read: async (id) => documents.read<T>(pk, id),
    create: async (doc) => documents.create(doc),
    replace: async (doc, etag) => documents.replace(doc, etag),
    byRef: async (ref) => found((doc) => doc.ref === ref)[0] ?? null,
    list: async () => found(() => true).map((each) => each.doc),
  };
}
