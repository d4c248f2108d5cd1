import type { Conditional, Versioned } from './documents';

/** Uses the first site's keys, since links name their site. */
export const LINKS_PK = 'links';

/** scrypt's output and parameters, never the password. */
export interface PasswordHash {
  salt: string;
  hash: string;
  n: number;
  r: number;
  p: number;
}

/** Only the token's keyed hash is kept, which no one without the server's key can make or reverse. */
export interface SharedLink {
  id: string;
  pk: typeof LINKS_PK;
  kind: 'shared-link';
  /** Random, unrelated to the token. */
  ref: string;
  site: string;
  label: string;
  /** `dimension:value` filters the viewer cannot take off; none lets the viewer filter. */
  filters: string[];
  /** `7`, `30` or `all` as the card takes it; null lets the viewer choose. */
  days: string | null;
  created_at: string;
  expires_at: string | null;
  password: PasswordHash | null;
  revoked_at: string | null;
}

/** By token hash is one point read. */
export interface SharedLinks extends Conditional<SharedLink, [id: string]> {
  byRef(ref: string): Promise<Versioned<SharedLink> | null>;
  list(): Promise<SharedLink[]>;
}

export const linkId = (hash: string) => `link:${hash}`;
