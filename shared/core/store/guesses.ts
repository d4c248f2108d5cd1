import type { Conditional } from './documents';

/** Kept with the first site's documents, since a guess names no site. */
export const GUESSES_PK = 'guesses';

/** One secret's wrong guesses from one address, under a keyed hash of both, so no address is kept. */
export interface GuessCount {
  id: string;
  pk: typeof GUESSES_PK;
  kind: 'guess-count';
  /** Guesses counted and not taken back. */
  guesses: number;
  /** When the last one was counted. */
  last_at: string;
  /** Cosmos DB deletes it this long after its last write; a read treats it as gone from then too. */
  ttl: number;
}

export type GuessCounts = Conditional<GuessCount, [id: string]>;
