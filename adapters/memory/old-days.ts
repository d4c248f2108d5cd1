import type { VisitorDay } from '../../shared/core/store/activity';
import type { Fact } from '../../shared/core/store/facts';
import { IMPORTS_PK, type LandedImport } from '../../shared/core/store/imports';
import type { OldDays } from '../../shared/core/store/old-days';
import type { MemoryDocuments } from './documents';

export function memoryOldDays(documents: MemoryDocuments): OldDays {
  return {
    unkeyed: async (day, limit) =>
      documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day' && doc.rekeyed === undefined, day).slice(0, limit),
    networks: async (day, limit) =>
      documents
        .query<VisitorDay>((doc) => doc.kind === 'visitor-day' && doc.network !== 'x', day)
        .slice(0, limit)
        .map((doc) => doc.network),
    create: async (doc) => documents.create(doc),
    remove: async (day, id) => documents.delete(day, id),
    landedAfter: async (day, watermark) =>
      documents.queryMarked<LandedImport>((doc, at) => doc.kind === 'import-landed' && at > watermark && doc.days.includes(day), IMPORTS_PK)
        .length > 0,
    facts: async (day, limit) =>
      documents
        .queryMarked<Fact>((doc) => doc.kind === 'fact', day)
        .slice(0, limit)
        .map(({ doc, watermark }) => ({ id: doc.id, watermark })),
    removeFact: async (day, id) => documents.delete(day, id),
  };
}
