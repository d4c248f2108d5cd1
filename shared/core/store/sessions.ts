import { createHash } from 'node:crypto';
import type { Conditional } from './documents';

/** Kept with the first site's documents, since a session opens every site. */
export const SESSIONS_PK = 'sessions';

/** One signed-in Admin session, so signing out ends it on the server; times are whole seconds since the epoch. */
export interface AdminSession {
  id: string;
  pk: typeof SESSIONS_PK;
  kind: 'admin-session';
  signed_in_at: number;
  /** Signing out sets it to then; a read treats a session past it as ended, as the local server deletes nothing. */
  expires_at: number;
  /** Cosmos DB deletes it when it can no longer be used. */
  ttl: number;
}

export type AdminSessions = Conditional<AdminSession, [id: string]>;

/** A hash of the cookie's id, so a copy of the store names no cookie. */
export const sessionDocId = (sessionId: string): string => `session:${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}`;
