import { LINKS_PK, type SharedLink, type SharedLinks } from '../../shared/core/store/links';
import type { MemoryDocuments } from './documents';

export function memoryLinks(documents: MemoryDocuments): SharedLinks {
  const links = (where: (link: SharedLink) => boolean) =>
    documents.queryMarked<SharedLink>((doc) => doc.kind === 'shared-link' && where(doc), LINKS_PK);
  return {
    read: async (id) => documents.read<SharedLink>(LINKS_PK, id),
    create: async (doc) => documents.create(doc),
    replace: async (doc, etag) => documents.replace(doc, etag),
    byRef: async (ref) => links((link) => link.ref === ref)[0] ?? null,
    list: async () => links(() => true).map((found) => found.doc),
  };
}
