import type { Created } from './documents';

/** Every instance reads the same secret of a day from here, so all of them make the same tokens. */
export const SECRETS_PK = 'secrets';

/** The key of a day's tokens: random, never derived from HASH_KEY, deleted once the day can receive no more hits. */
export interface DaySecret {
  id: string;
  pk: typeof SECRETS_PK;
  kind: 'day-secret';
  day: string;
  /** 32 random bytes, hex. */
  secret: string;
  /** Seconds: Cosmos DB's backstop, past the day the timer deletes it. */
  ttl: number;
}

export const daySecretId = (day: string) => `secret:${day}`;

/** Imports of days whose own secret is gone make their tokens with this one, so a rerun makes the same tokens. */
export interface ImportSecret {
  id: typeof IMPORT_SECRET_ID;
  pk: typeof SECRETS_PK;
  kind: 'import-secret';
  secret: string;
}

export const IMPORT_SECRET_ID = 'secret:imports';

/** The key a kept day's old tokens are made again with, deleted as soon as that day is done (shared/fold/migrations/old-days.ts). */
export interface RekeySecret {
  id: string;
  pk: typeof SECRETS_PK;
  kind: 'rekey-secret';
  day: string;
  secret: string;
}

export const rekeySecretId = (day: string) => `secret:rekey:${day}`;

export type Secret = DaySecret | ImportSecret | RekeySecret;

/** A create that finds the day's secret there (409) answers `exists`, and the caller reads the one kept. */
export interface DaySecrets {
  read(id: string): Promise<Secret | null>;
  create(doc: Secret): Promise<Created>;
  /** One partition query: the days whose secret is kept. */
  days(): Promise<string[]>;
  /** By id; gone already is done. */
  remove(id: string): Promise<void>;
}
