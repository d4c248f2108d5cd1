import { LINKS_PK, type SharedLink, type SharedLinks } from '../../shared/core/store/links';
import type { CosmosDocuments } from './documents';

export function cosmosLinks(documents: CosmosDocuments): SharedLinks {
  return {
    read: (id) => documents.read<SharedLink>(LINKS_PK, id),
    create: (doc) => documents.create(doc),
    replace: (doc, etag) => documents.replace(doc, etag),
    byRef: async (ref) =>
      (
        await documents.queryMarked<SharedLink>(
          "SELECT * FROM c WHERE c.kind = 'shared-link' AND c.ref = @ref",
          [{ name: '@ref', value: ref }],
          LINKS_PK,
        )
      )[0] ?? null,
    list: () => documents.query<SharedLink>("SELECT * FROM c WHERE c.kind = 'shared-link'", [], LINKS_PK),
  };
}
