import { canonicalAddress } from './network';

/**
 * The visitor's address from X-Forwarded-For, counted from the right.
 *
 * The platform's front end (Azure's, or the local host standing in for it) appends the address of the
 * connection it accepted, so the rightmost entry is the connection's address. Each trusted proxy in front
 * of the platform (Front Door, a CDN) appends one more entry, so with `trustedProxyHops` of them the visitor
 * is that many entries further left. Entries further left than that were written by the client and are never
 * read. Null when the header holds fewer entries than the hops, or the entry is not an address.
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
