import ipaddr from 'ipaddr.js';

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

/** 203.0.113.7:443 is 203.0.113.7; [2001:db8::1]:443 is 2001:db8::1. */
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
 * -1 unless four-part dotted decimal with no leading zero, since ipaddr.js reads `010` as octal.
 * Read a character at a time, since it runs several times on every hit.
 */
export function fourPartNumber(address: string): number {
  const length = address.length;
  if (length < 7 || length > 15) return -1;
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= length; i += 1) {
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

function bare(raw: string): string {
  const address = withoutPort(raw);
  const zone = address.indexOf('%');
  return zone === -1 ? address : address.slice(0, zone);
}

/** An IPv4-mapped IPv6 address reads as its IPv4. */
export function parseAddress(raw: string): Parsed | null {
  return parseBare(bare(raw));
}

function parseBare(address: string): Parsed | null {
  // Read by shape, since ipaddr.js also takes "127.1" and its isValid throws and catches on every referrer host.
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

// Four-part IPv4 is already canonical, so the functions below answer it from its text: each runs on every hit.

/** So one machine hashes the same however its address was written. */
export function canonicalAddress(raw: string): string | null {
  const address = bare(raw);
  if (!address.includes(':')) return fourPartNumber(address) < 0 ? null : address;
  const parsed = parseBare(address);
  return parsed === null ? null : parsed.toString();
}

/** 203.0.113.7 is 203.0.113.x; IPv6 keeps 48 bits, 2001:db8:0:x; anything unreadable is x. */
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

export function parseCidr(raw: string): [Parsed, number] | null {
  try {
    return ipaddr.parseCIDR(raw.trim());
  } catch {
    return null;
  }
}

/** 127.0.0.0/8, ::1 or ::ffff:127.x. */
export function isLoopback(raw: string): boolean {
  const address = bare(raw);
  // ipaddr.js's IPv4 loopback is 127.0.0.0/8, so the first octet says it.
  if (!address.includes(':')) return fourPartNumber(address) >>> 24 === 127;
  const parsed = parseBare(address);
  if (parsed === null) return false;
  if (parsed.kind() === 'ipv4') return (parsed as ipaddr.IPv4).octets[0] === 127;
  return parsed.range() === 'loopback';
}

/** The CIDR strings were checked at start-up. */
export function inNetworks(raw: string, networks: readonly string[]): boolean {
  if (networks.length === 0) return false;
  const parsed = parseAddress(raw);
  if (parsed === null) return false;
  return networks.some((network) => {
    const range = parseCidr(network);
    return range !== null && range[0].kind() === parsed.kind() && parsed.match(range);
  });
}

/** Loopback rows count as one machine. */
export function isLoopbackNetwork(network: string): boolean {
  return network.startsWith('127.') || network === '0:0:0:x';
}

/** Only loopback's network is kept, so the machine's own requests stay one visit: any other beside a token or a sketch narrows an address search to 256 candidates. */
export function keptNetwork(raw: string | null): string {
  return raw !== null && isLoopback(raw) ? networkOf(raw) : 'x';
}
