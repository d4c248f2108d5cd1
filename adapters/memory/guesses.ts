import { GUESSES_PK, type GuessCount, type GuessCounts } from '../../shared/core/store/guesses';
import type { MemoryDocuments } from './documents';

export function memoryGuesses(documents: MemoryDocuments): GuessCounts {
  return {
    read: async (id) => documents.read<GuessCount>(GUESSES_PK, id),
    create: async (doc) => documents.create(doc),
    replace: async (doc, etag) => documents.replace(doc, etag),
  };
}
