import type { Conditional, Versioned } from './documents';

/** Kept with the links' store, the first site's, since a key names its site. */
export const API_KEYS_PK = 'api-keys';

/** A read-only API key: only its keyed hash is kept, which no one without the server's key can make or reverse. */
export interface ApiKey {
  id: string;
  pk: typeof API_KEYS_PK;
  kind: 'api-key';
  /** Random, unrelated to the key: what the dashboard lists and revokes it by. */
  ref: string;
  name: string;
  /** A declared site, or `*` for every site. */
  site: string;
  created_at: string;
  revoked_at: string | null;
}

/** A key's requests in one hour, counted in the store so every instance sees them. */
export interface ApiKeyUse {
  id: string;
  pk: typeof API_KEYS_PK;
  kind: 'api-key-use';
  uses: number;
  /** Forgotten once its hour is long past. */
  ttl: number;
}

export interface ApiKeys extends Conditional<ApiKey, [id: string]> {
  byRef(ref: string): Promise<Versioned<ApiKey> | null>;
  list(): Promise<ApiKey[]>;
  uses: Conditional<ApiKeyUse, [id: string]>;
}

export const apiKeyId = (hash: string) => `api-key:${hash}`;

export const apiKeyUseId = (ref: string, hour: string) => `api-key-use:${ref}:${hour}`;
