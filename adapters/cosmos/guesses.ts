import { GUESSES_PK, type GuessCount, type GuessCounts } from '../../shared/core/store/guesses';
import type { CosmosDocuments } from './documents';

export function cosmosGuesses(documents: CosmosDocuments): GuessCounts {
  return {
    read: (id) => documents.read<GuessCount>(GUESSES_PK, id),
    create: (doc) => documents.create(doc),
    replace: (doc, etag) => documents.replace(doc, etag),
  };
}
