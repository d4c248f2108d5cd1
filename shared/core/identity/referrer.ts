import { networkOf, parseAddress } from './network';

/** DNS's limit, and the longest source a queued hit may carry. */
export const MAX_HOST_LENGTH = 253;

// Nothing the URL parser would act on: no user, port, escape or space.
const PLAIN_WEB_ADDRESS = /^https?:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?:[/?#]|$)/i;
// The URL parser reads such a host as an IPv4 address: `1.2.3.4`, `0x7f`.
const NUMBER = /^(?:\d+|0x[0-9a-f]*)$/;

/** Skips the URL parser, several times slower, for the plain form; null for any form the parser must read. */
function plainHost(referrer: string): string | null {
  const match = PLAIN_WEB_ADDRESS.exec(referrer);
  if (match === null) return null;
  const host = match[1]!.toLowerCase();
  if (NUMBER.test(host.slice(host.lastIndexOf('.') + 1))) return null;
  if (host.startsWith('xn--') || host.includes('.xn--')) return null;
  if (host.length > 63 && host.split('.').some((label) => label.length > 63)) return null;
  return host;
}

/** Only a page load's host; a host that is an address is kept as its network, since nothing queued may hold one. */
export function referrerHost(referrer: string | null | undefined, pageLoad: boolean): string | null {
  if (!pageLoad || !referrer) return null;
  // A plain host has no number for its last label and no `:` or `[`, so it is a name.
  const plain = plainHost(referrer);
  if (plain !== null) return plain.length > MAX_HOST_LENGTH ? null : plain;
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

/** A host as a site is known by it: lowercase, without its port, brackets or `www.`. */
export const bareHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '')
    .replace(/^www\./, '');

function bareHostOf(url: string): string | null {
  try {
    return bareHost(new URL(url).hostname);
  } catch {
    return null;
  }
}

/** The hosts of a site's origins. */
export function siteHosts(origins: readonly string[]): Set<string> {
  const hosts = new Set<string>();
  for (const origin of origins) {
    const host = bareHostOf(origin);
    // Settings are validated at start-up; an origin that is not a URL names no host.
    if (host !== null) hosts.add(host);
  }
  return hosts;
}

/** A referrer on one of the site's hosts is a page of the site linking another (a route change): never a source. */
export function isInSite(referrer: string | null | undefined, hosts: ReadonlySet<string>): boolean {
  if (!referrer || hosts.size === 0) return false;
  const host = bareHostOf(referrer);
  return host !== null && hosts.has(host);
}
