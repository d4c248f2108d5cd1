/**
 * The compact table of the hosting networks' address ranges: made at build time from the network data
 * (scripts/build-networks.ts), read once per process into typed arrays, and searched by binary search, so a lookup
 * costs about twenty comparisons and makes no garbage. IPv6 ranges are kept by their first 64 bits: no provider
 * hands out less than a /64, so nothing is lost that a lookup could tell apart.
 */

import { fourPartNumber } from './network';

/** What the table says of itself: where its data came from, which hosting list it was built for, how many ranges. */
export interface NetworkTableHeader {
  source: string;
  version: string;
  list: string;
  ipv4: number;
  ipv6: number;
}

/** One IPv4 range (inclusive, as 32-bit numbers) or IPv6 range (inclusive, first 64 bits as BigInts) of an AS. */
export interface TableRanges {
  ipv4: Array<{ start: number; end: number; asn: number }>;
  ipv6: Array<{ start: bigint; end: bigint; asn: number }>;
}

/** The lookup the ingest reads: the hosting AS an address belongs to, or null for any other network. */
export interface HostingNetworks {
  header: NetworkTableHeader;
  /** The AS number when the canonical address is on a hosting network, else null (also for text that is no address). */
  hostingAsn(address: string): number | null;
}

const MAGIC = 'HCN1';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The table as bytes: the magic, the JSON header's length and text, then the ranges as little-endian 32-bit words. */
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

/** The last index whose start is at or before the value, or -1. */
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

/** The last index whose (hi, lo) start is at or before (hi, lo), or -1. */
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

/** An IPv4 address's 32-bit number, or null. */
function ipv4Number(address: string): number | null {
  // The canonical form every hit's address is in, read without a pattern; anything else (leading zeros) as before.
  const canonical = fourPartNumber(address);
  if (canonical >= 0) return canonical;
  const parts = FOUR_PART.exec(address);
  if (!parts) return null;
  const octets = [parts[1], parts[2], parts[3], parts[4]].map(Number);
  if (octets.some((octet) => octet > 255)) return null;
  return ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
}

/** An IPv6 address's first 64 bits as two 32-bit words, or null (the address is canonical: `::` at most once). */
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

/** The table read from its bytes, or why it cannot be: wrong format, or built for another hosting list. */
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
  // One aligned copy, so the words are read as typed arrays (the file's buffer may start at any offset); on a
  // little-endian machine (every one Azure runs Node on) the bytes are the words, else each is read in turn.
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

/** No network is hosting: for rules built without the table (a unit test of another rule). */
export const NO_HOSTING: HostingNetworks = {
  header: { source: 'none', version: 'none', list: 'none', ipv4: 0, ipv6: 0 },
  hostingAsn: () => null,
};
