import type { Conditional, Versioned } from './documents';

/** The partition of the shared links (the first site's keys: links name their site). */
export const LINKS_PK = 'links';

/** A password as kept: scrypt's output and its parameters, never the password. */
export interface PasswordHash {
  salt: string;
  hash: string;
  n: number;
  r: number;
  p: number;
}

/**
 * A read-only link to one site's dashboard (pk `links`, id `link:<keyed hash of its token>`), made by the operator.
 * The token itself is kept nowhere: only its keyed hash, which no one without the server's key can make or reverse.
 */
export interface SharedLink {
  id: string;
  pk: typeof LINKS_PK;
  kind: 'shared-link';
  /** A random name for the link in the dashboard's list and its revoking, unrelated to the token. */
  ref: string;
  site: string;
  label: string;
  /** Fixed filters (`dimension:value`), which the viewer cannot take off; none lets the viewer filter. */
  filters: string[];
  /** A fixed period (`days` as the card takes it: `7`, `30`, `all`), or null for the viewer's choice. */
  days: string | null;
  created_at: string;
  expires_at: string | null;
  password: PasswordHash | null;
  revoked_at: string | null;
}

/** The shared links: by the keyed hash of a token (one point read), by ref, and all of them for the list. */
export interface SharedLinks extends Conditional<SharedLink, [id: string]> {
  byRef(ref: string): Promise<Versioned<SharedLink> | null>;
  list(): Promise<SharedLink[]>;
}

export const linkId = (hash: string) => `link:${hash}`;
