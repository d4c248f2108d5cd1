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

/** An hour: an import renews its secret at most this often, so the timer sees it in use. */
export const IMPORT_SECRET_RENEW_MS = 3_600_000;

/** A day: the timer deletes an import secret no import has used for this long. */
export const IMPORT_SECRET_IDLE_MS = 86_400_000;

/** Seconds Cosmos DB keeps an import secret past its last renewal, should the timer not delete it: a day past idle. */
export const IMPORT_SECRET_TTL = (2 * IMPORT_SECRET_IDLE_MS) / 1000;

/**
 * The key of an imported day's tokens once the day's own secret is gone, so the imports of that day running now make one
 * visit of a person's day. Renewed while imports use it, deleted by the timer once unused for IMPORT_SECRET_IDLE_MS.
 */
export interface ImportSecret {
  id: string;
  pk: typeof SECRETS_PK;
  kind: 'import-secret';
  day: string;
  /** 32 random bytes, hex. */
  secret: string;
  /** When an import last renewed it, ISO 8601. */
  used_at: string;
  ttl: number;
}

export const importSecretId = (day: string) => `secret:import:${day}`;

/** The key a kept day's old tokens are made again with, deleted as soon as that day is done (shared/fold/migrations/old-days.ts). */
export interface RekeySecret {
  id: string;
  pk: typeof SECRETS_PK;
  kind: 'rekey-secret';
  day: string;
  secret: string;
  ttl: typeof REKEY_SECRET_TTL;
}

/** A week: a day is done in minutes, so only a migration stalled that long loses it, and then no secret outlives it. */
export const REKEY_SECRET_TTL = 604_800;

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
  /** Sets an import secret's `used_at` and `ttl`, unless it is gone. */
  renew(id: string, usedAt: string, ttl: number): Promise<'renewed' | 'gone'>;
  /** One partition query: the import secrets kept, with when each was last used (absent on one kept before renewals). */
  imports(): Promise<Array<{ id: string; used_at?: string }>>;
}
