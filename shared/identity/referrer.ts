import { networkOf, parseAddress } from './network';

/** The longest host name DNS allows, and the longest source a queued hit may carry. */
export const MAX_HOST_LENGTH = 253;

/**
 * The referrer kept: only on a page load, only its lowercased host; null for anything else or anything unreadable.
 * A host that is an address (`http://203.0.113.7/`, `http://[2001:db8::1]/`) is kept only as its network, since
 * nothing queued may hold a full address; a host longer than DNS allows is not a host and is not kept.
 */
export function referrerHost(referrer: string | null | undefined, pageLoad: boolean): string | null {
  if (!pageLoad || !referrer) return null;
  let host: string;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    host = url.hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host === '' || host.length > MAX_HOST_LENGTH) return null;
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (parseAddress(literal) !== null) return networkOf(literal);
  return host;
}
