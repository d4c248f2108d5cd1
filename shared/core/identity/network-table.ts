/**
 * Built by scripts/build-networks.ts and searched by halving, so a lookup is about twenty comparisons.
 * IPv6 ranges keep their first 64 bits, since no provider hands out less than a /64.
 */

import { fourPartNumber } from './network';

export interface NetworkTableHeader {
  source: string;
  version: string;
  list: string;
  ipv4: number;
  ipv6: number;
}

/** Ends inclusive; IPv6 as its first 64 bits in BigInts. */
export interface TableRanges {
  ipv4: Array<{ start: number; end: number; asn: number }>;
  ipv6: Array<{ start: bigint; end: bigint; asn: number }>;
}

export interface HostingNetworks {
  header: NetworkTableHeader;
  /** Null for any other network, or text that is no address. */
  hostingAsn(address: string): number | null;
}

const MAGIC = 'HCN1';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The magic, the JSON header's length and text, then the ranges as little-endian 32-bit words. */
export function encodeTable(ranges: TableRanges, about: Omit<NetworkTableHeader, 'ipv4' | 'ipv6'>): Uint8Array {
  const header = Buffer.from(JSON.stringify({ ...about, ipv4: ranges.ipv4.length, ipv6: ranges.ipv6.length }), 'utf8');
  const headerEnd = 8 + header.length;
  const wordsAt = Math.ceil(headerEnd / 4) * 4;
  const words = new Uint32Array(ranges.ipv4.length * 3 + ranges.ipv6.length * 5);
  const n4 = ranges.ipv4.length;
  ranges.ipv4.forEach((range, i) => {
    words[i] = range.start;
    words[n4 + i] = range.end;
    words[2 * n4 + i] = range.asn;
  });
  const base = 3 * n4;
  const n6 = ranges.ipv6.length;
  const hi = (value: bigint) => Number((value >> 32n) & 0xffffffffn);
  const lo = (value: bigint) => Number(value & 0xffffffffn);
  ranges.ipv6.forEach((range, i) => {
    words[base + i] = hi(range.start);
    words[base + n6 + i] = lo(range.start);
    words[base + 2 * n6 + i] = hi(range.end);
    words[base + 3 * n6 + i] = lo(range.end);
    words[base + 4 * n6 + i] = range.asn;
  });
  const bytes = Buffer.alloc(wordsAt + words.byteLength);
  bytes.write(MAGIC, 0, 'latin1');
  bytes.writeUInt32LE(header.length, 4);
  header.copy(bytes, 8);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < words.length; i += 1) view.setUint32(wordsAt + 4 * i, words[i]!, true);
  return bytes;
}

function lastAtOrBefore(starts: Uint32Array, value: number): number {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (starts[middle]! <= value) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

function lastAtOrBefore64(startHi: Uint32Array, startLo: Uint32Array, hi: number, lo: number): number {
  let low = 0;
  let high = startHi.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const h = startHi[middle]!;
    if (h < hi || (h === hi && startLo[middle]! <= lo)) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

const FOUR_PART = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4Number(address: string): number | null {
  // Every hit's address is canonical; anything else, such as leading zeros, takes the slow path.
  const canonical = fourPartNumber(address);
  if (canonical >= 0) return canonical;
  const parts = FOUR_PART.exec(address);
  if (!parts) return null;
  const octets = [parts[1], parts[2], parts[3], parts[4]].map(Number);
  if (octets.some((octet) => octet > 255)) return null;
  return ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
}

/** The address is canonical, so `::` appears at most once. */
function ipv6First64(address: string): [number, number] | null {
  if (!address.includes(':') || address.includes('.')) return null;
  const [head = '', tail] = address.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  if (groups.length !== 8) return null;
  const g = groups.slice(0, 4).map((group) => Number.parseInt(group, 16));
  if (g.some((group) => Number.isNaN(group) || group < 0 || group > 0xffff)) return null;
  return [((g[0]! << 16) | g[1]!) >>> 0, ((g[2]! << 16) | g[3]!) >>> 0];
}

/** Refused when the format is wrong or it was built for another hosting list. */
export function readTable(bytes: Uint8Array, expectedList: string): { ok: true; table: HostingNetworks } | { ok: false; reason: string } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 8 || buffer.toString('latin1', 0, 4) !== MAGIC) return { ok: false, reason: 'it is not a hosting-network table' };
  const headerLength = buffer.readUInt32LE(4);
  let header: NetworkTableHeader;
  try {
    header = JSON.parse(buffer.toString('utf8', 8, 8 + headerLength)) as NetworkTableHeader;
  } catch {
    return { ok: false, reason: 'its header is unreadable' };
  }
  if (header.list !== expectedList)
    return { ok: false, reason: `it was built for another hosting list (${header.list}, not ${expectedList})` };
  const wordsAt = Math.ceil((8 + headerLength) / 4) * 4;
  const n4 = header.ipv4;
  const n6 = header.ipv6;
  if (buffer.length !== wordsAt + 4 * (3 * n4 + 5 * n6)) return { ok: false, reason: 'its length does not match its header' };
  // One aligned copy, since the file's buffer may start at any offset.
  const words = new Uint32Array(3 * n4 + 5 * n6);
  if (LITTLE_ENDIAN) new Uint8Array(words.buffer).set(buffer.subarray(wordsAt));
  else for (let i = 0; i < words.length; i += 1) words[i] = buffer.readUInt32LE(wordsAt + 4 * i);
  const part = (from: number, count: number) => words.subarray(from, from + count);
  const v4 = { starts: part(0, n4), ends: part(n4, n4), asns: part(2 * n4, n4) };
  const b = 3 * n4;
  const v6 = {
    startHi: part(b, n6),
    startLo: part(b + n6, n6),
    endHi: part(b + 2 * n6, n6),
    endLo: part(b + 3 * n6, n6),
    asns: part(b + 4 * n6, n6),
  };
  const hostingAsn = (address: string): number | null => {
    const four = ipv4Number(address);
    if (four !== null) {
      const at = lastAtOrBefore(v4.starts, four);
      return at >= 0 && four <= v4.ends[at]! ? v4.asns[at]! : null;
    }
    const six = ipv6First64(address);
    if (six === null) return null;
    const [hi, lo] = six;
    const at = lastAtOrBefore64(v6.startHi, v6.startLo, hi, lo);
    if (at < 0) return null;
    const endHi = v6.endHi[at]!;
    return hi < endHi || (hi === endHi && lo <= v6.endLo[at]!) ? v6.asns[at]! : null;
  };
  return { ok: true, table: { header, hostingAsn } };
}

/** For rules built without the table, in a unit test of another rule. */
export const NO_HOSTING: HostingNetworks = {
  header: { source: 'none', version: 'none', list: 'none', ipv4: 0, ipv6: 0 },
  hostingAsn: () => null,
};
