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

const FOUR_PART = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The address as ipaddr.js reads it, an IPv4-mapped IPv6 address as the IPv4 it carries; null when unreadable. */
export function parseAddress(raw: string): Parsed | null {
  const address = withoutPort(raw).split('%')[0] ?? '';
  // Only the four-part dotted form is an IPv4 address here (ipaddr.js also reads "127.1", "0x7f.1" or a bare number).
  // The shape is tested first because ipaddr.js throws and catches inside isValid for text that is no address, and
  // that costs tens of microseconds on every referrer host.
  const readable = address.includes(':')
    ? ipaddr.IPv6.isValid(address)
    : FOUR_PART.test(address) && ipaddr.IPv4.isValidFourPartDecimal(address);
  if (!readable) return null;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

/** The address in one canonical spelling, so one machine hashes the same however its address was written; null when unreadable. */
export function canonicalAddress(raw: string): string | null {
  const parsed = parseAddress(raw);
  return parsed === null ? null : parsed.toString();
}

/** 203.0.113.7 is 203.0.113.x; an IPv6 address keeps its first 48 bits (2001:db8:0:x); anything unreadable is x. */
export function networkOf(raw: string | null | undefined): string {
  if (!raw) return 'x';
  const parsed = parseAddress(raw);
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
  const parsed = parseAddress(raw);
  return parsed !== null && parsed.range() === 'loopback';
}

/** Whether the address falls in any of the networks (CIDR strings already validated at start-up). */
export function inNetworks(raw: string, networks: readonly string[]): boolean {
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
