import { networkOf, parseAddress } from './network';

/** The longest host name DNS allows, and the longest source a queued hit may carry. */
export const MAX_HOST_LENGTH = 253;

// `http(s)://` and a host of letters, digits, `-` and inner dots, ended by the path, query, fragment or the end: no
// user, port, escape, space or other character the URL parser would act on.
const PLAIN_WEB_ADDRESS = /^https?:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?:[/?#]|$)/i;
// A last label the URL parser reads as a number, making the host an IPv4 address (`1.2.3.4`, `0x7f`).
const NUMBER = /^(?:\d+|0x[0-9a-f]*)$/;

/**
 * The host of a referrer in the plain form nearly every one has (`https://www.linkedin.com/feed/`), read without the
 * URL parser (several times slower, and run on every page load): exactly its `hostname`, lowercased. Null for any
 * other form, and for a host the parser reads otherwise even in this form (a number for its last label, a punycode
 * label it decodes and checks, a label longer than DNS allows): the URL parser reads those.
 */
function plainHost(referrer: string): string | null {
  const match = PLAIN_WEB_ADDRESS.exec(referrer);
  if (match === null) return null;
  const host = match[1]!.toLowerCase();
  if (NUMBER.test(host.slice(host.lastIndexOf('.') + 1))) return null;
  if (host.startsWith('xn--') || host.includes('.xn--')) return null;
  if (host.length > 63 && host.split('.').some((label) => label.length > 63)) return null;
  return host;
}

/**
 * The referrer kept: only on a page load, only its lowercased host; null for anything else or anything unreadable.
 * A host that is an address (`http://203.0.113.7/`, `http://[2001:db8::1]/`) is kept only as its network, since
 * nothing queued may hold a full address; a host longer than DNS allows is not a host and is not kept.
 */
export function referrerHost(referrer: string | null | undefined, pageLoad: boolean): string | null {
  if (!pageLoad || !referrer) return null;
  // A plain host is a name, never an address: its last label is no number and it has no `:` or `[`.
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
