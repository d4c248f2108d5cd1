import ipaddr from 'ipaddr.js';

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * The address without a port a hop may have written after it, and without IPv6 brackets or a zone:
 * 203.0.113.7:443 is 203.0.113.7; [2001:db8::1]:443 is 2001:db8::1.
 */
export function withoutPort(raw: string): string {
  const address = raw.trim();
  if (address.startsWith('[')) {
    const close = address.indexOf(']');
    return close > 1 ? address.slice(1, close) : address;
  }
  const colon = address.indexOf(':');
  const isV4WithPort = colon > 0 && colon === address.lastIndexOf(':') && address.slice(0, colon).split('.').length === 4;
  return isV4WithPort ? address.slice(0, colon) : address;
}

/**
 * The address's 32-bit number when it is a four-part dotted decimal IPv4 address, as ipaddr.js's
 * isValidFourPartDecimal takes one (no part above 255, none with a leading zero, since ipaddr.js would read `010` as
 * octal); -1 when it is not one. Read a character at a time: it runs several times on every hit (here, and in the
 * country and hosting network lookups).
 */
export function fourPartNumber(address: string): number {
  const length = address.length;
  if (length < 7 || length > 15) return -1;
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= length; i += 1) {
    // A dot after the end closes the last part.
    const code = i < length ? address.charCodeAt(i) : 46;
    if (code === 46) {
      if (digits === 0 || part > 255) return -1;
      value = value * 256 + part;
      parts += 1;
      part = 0;
      digits = 0;
    } else if (code >= 48 && code <= 57) {
      if (digits > 0 && part === 0) return -1;
      part = part * 10 + (code - 48);
      digits += 1;
      if (digits > 3) return -1;
    } else return -1;
  }
  return parts === 4 ? value : -1;
}

/** The address without a port, brackets or zone: what is read as an address. */
function bare(raw: string): string {
  const address = withoutPort(raw);
  const zone = address.indexOf('%');
  return zone === -1 ? address : address.slice(0, zone);
}

/** The address as ipaddr.js reads it, an IPv4-mapped IPv6 address as the IPv4 it carries; null when unreadable. */
export function parseAddress(raw: string): Parsed | null {
  return parseBare(bare(raw));
}

/** parseAddress of an address already without its port, brackets and zone. */
function parseBare(address: string): Parsed | null {
  // Only the four-part dotted form is an IPv4 address here (ipaddr.js also reads "127.1", "0x7f.1" or a bare number).
  // It is read by its shape, never by ipaddr.js's isValid, which throws and catches for text that is no address (tens
  // of microseconds on every referrer host) and parses the address twice when it is one.
  if (!address.includes(':')) {
    const number = fourPartNumber(address);
    return number < 0 ? null : new ipaddr.IPv4([number >>> 24, (number >>> 16) & 255, (number >>> 8) & 255, number & 255]);
  }
  if (!ipaddr.IPv6.isValid(address)) return null;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

// An IPv4 address in the four-part form is already its canonical spelling (ipaddr.js writes its octets back joined by
// dots, and the form has no leading zero to lose), so the functions below answer it from its text, without parsing it
// into an object: each runs on every hit.

/** The address in one canonical spelling, so one machine hashes the same however its address was written; null when unreadable. */
export function canonicalAddress(raw: string): string | null {
  const address = bare(raw);
  if (!address.includes(':')) return fourPartNumber(address) < 0 ? null : address;
  const parsed = parseBare(address);
  return parsed === null ? null : parsed.toString();
}

/** 203.0.113.7 is 203.0.113.x; an IPv6 address keeps its first 48 bits (2001:db8:0:x); anything unreadable is x. */
export function networkOf(raw: string | null | undefined): string {
  if (!raw) return 'x';
  const address = bare(raw);
  if (!address.includes(':')) return fourPartNumber(address) < 0 ? 'x' : `${address.slice(0, address.lastIndexOf('.'))}.x`;
  const parsed = parseBare(address);
  if (parsed === null) return 'x';
  if (parsed.kind() === 'ipv4') {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.x`;
  }
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3).map((part) => part.toString(16));
  return `${parts.join(':')}:x`;
}

/** A network written as CIDR; null when it is not one. */
export function parseCidr(raw: string): [Parsed, number] | null {
  try {
    return ipaddr.parseCIDR(raw.trim());
  } catch {
    return null;
  }
}

/** Whether the address is the machine itself (127.0.0.0/8, ::1, or ::ffff:127.x). */
export function isLoopback(raw: string): boolean {
  const address = bare(raw);
  // 127.0.0.0/8 is ipaddr.js's IPv4 loopback range, and overlaps no other range it names: its first octet says it.
  if (!address.includes(':')) return fourPartNumber(address) >>> 24 === 127;
  const parsed = parseBare(address);
  if (parsed === null) return false;
  if (parsed.kind() === 'ipv4') return (parsed as ipaddr.IPv4).octets[0] === 127;
  return parsed.range() === 'loopback';
}

/** Whether the address falls in any of the networks (CIDR strings already validated at start-up). */
export function inNetworks(raw: string, networks: readonly string[]): boolean {
  if (networks.length === 0) return false;
  const parsed = parseAddress(raw);
  if (parsed === null) return false;
  return networks.some((network) => {
    const range = parseCidr(network);
    return range !== null && range[0].kind() === parsed.kind() && parsed.match(range);
  });
}

/** Whether a kept network (203.0.113.x, ::1's 0:0:0:x) is the loopback network, for counting loopback rows as one machine. */
export function isLoopbackNetwork(network: string): boolean {
  return network.startsWith('127.') || network === '0:0:0:x';
}
