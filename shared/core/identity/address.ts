import { canonicalAddress } from './network';

/**
 * Read from the right: Azure's front end appends the connection's address, and each trusted proxy one more entry.
 * Entries further left were written by the client and are never read.
 */
export function clientAddress(forwardedFor: string | null | undefined, trustedProxyHops: number): string | null {
  if (!forwardedFor) return null;
  const entries = forwardedFor
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const entry = entries[entries.length - 1 - trustedProxyHops];
  return entry === undefined ? null : canonicalAddress(entry);
}
