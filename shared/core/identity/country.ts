import ipaddr from 'ipaddr.js';
import { fourPartNumber, parseAddress } from './network';

/** Loopback, private, documentation, unknown or unreadable. */
export const UNKNOWN_COUNTRY = 'XX';

/** ISO 3166-1 alpha-2, upper case, nothing finer. */
export interface CountryLookup {
  countryOf(address: string | null): string;
}

export const noCountries: CountryLookup = { countryOf: () => UNKNOWN_COUNTRY };

interface V4Table {
  starts: Uint32Array;
  ends: Uint32Array;
  codes: Uint16Array;
}

/** Four 32-bit words per address, most significant first: row i at 4i to 4i+3. */
interface V6Table {
  starts: Uint32Array;
  ends: Uint32Array;
  codes: Uint16Array;
}

/** Sorted ranges that do not overlap, ends inclusive. */
export interface CountryTable extends CountryLookup {
  readonly ranges: { v4: number; v6: number };
}

const CODE = /^[A-Z]{2}$/;
const COMMA = 44;
const NEWLINE = 10;
const ZERO = 48;

/** A Uint16 per range points into these. */
class Names {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  /** Indexed by the code's two bytes, -1 not yet met, so a row costs no string. */
  private readonly byBytes = new Int16Array(65536).fill(-1);

  at(csv: Buffer, from: number, to: number): number {
    let end = to;
    while (end > from && (csv[end - 1] === 13 || csv[end - 1] === 32)) end -= 1;
    if (end - from !== 2) return this.of(csv.toString('latin1', from, to));
    const key = csv[from]! * 256 + csv[from + 1]!;
    let found = this.byBytes[key]!;
    if (found === -1) {
      found = this.of(csv.toString('latin1', from, end));
      this.byBytes[key] = found;
    }
    return found;
  }

  of(code: string): number {
    const upper = code.trim().toUpperCase();
    const name = CODE.test(upper) ? upper : UNKNOWN_COUNTRY;
    let found = this.index.get(name);
    if (found === undefined) {
      found = this.list.length;
      this.list.push(name);
      this.index.set(name, found);
    }
    return found;
  }
}

const COLON = 58;

/** Consumes up to the comma; returns the next position or -1. */
type ReadAddress = (csv: Buffer, at: number, into: Uint32Array) => number;

/** As the `*-ipv4-num.csv` files hold them: `16777216`. */
const readDecimal: ReadAddress = (csv, at, into) => {
  let value = 0;
  let digits = 0;
  while (at < csv.length && csv[at] !== COMMA) {
    const digit = csv[at]! - ZERO;
    if (digit < 0 || digit > 9 || digits > 10) return -1;
    value = value * 10 + digit;
    digits += 1;
    at += 1;
  }
  if (digits === 0 || value > 0xffffffff || csv[at] !== COMMA) return -1;
  into[0] = value;
  return at + 1;
};

const hexValue = (byte: number): number =>
  byte >= 48 && byte <= 57 ? byte - 48 : byte >= 97 && byte <= 102 ? byte - 87 : byte >= 65 && byte <= 70 ? byte - 55 : -1;

/** As the `*-ipv6.csv` files hold them: eight 16-bit groups, `::` once. */
const groups = new Uint16Array(8);
const readHex: ReadAddress = (csv, at, into) => {
  let count = 0;
  let gap = -1;
  let group = 0;
  let digits = 0;
  for (;;) {
    const byte = at < csv.length ? csv[at]! : COMMA;
    if (byte === COMMA || byte === COLON) {
      if (digits > 0) {
        if (count === 8) return -1;
        groups[count] = group;
        count += 1;
      }
      if (byte === COMMA) break;
      if (csv[at + 1] === COLON) {
        if (gap !== -1) return -1;
        gap = count;
        at += 1;
      } else if (digits === 0 && count > 0) return -1;
      group = 0;
      digits = 0;
    } else {
      const value = hexValue(byte);
      if (value < 0 || digits === 4) return -1;
      group = group * 16 + value;
      digits += 1;
    }
    at += 1;
  }
  if (gap === -1 ? count !== 8 : count > 7) return -1;
  const parts = [0, 0, 0, 0, 0, 0, 0, 0];
  const tail = gap === -1 ? 0 : count - gap;
  for (let i = 0; i < count; i += 1) parts[gap !== -1 && i >= gap ? 8 - tail + (i - gap) : i] = groups[i]!;
  for (let w = 0; w < 4; w += 1) into[w] = parts[2 * w]! * 65536 + parts[2 * w + 1]!;
  return at + 1;
};

/** Byte by byte, without a string or a BigInt per address: the tables have hundreds of thousands of rows. */
function readRows(
  csv: Buffer,
  words: number,
  read: ReadAddress,
  names: Names,
): { starts: Uint32Array; ends: Uint32Array; codes: Uint16Array } {
  let lines = 0;
  for (let i = 0; i < csv.length; i += 1) if (csv[i] === NEWLINE) lines += 1;
  const capacity = lines + 1;
  const starts = new Uint32Array(capacity * words);
  const ends = new Uint32Array(capacity * words);
  const codes = new Uint16Array(capacity);
  const address = new Uint32Array(words);
  let count = 0;
  let at = 0;
  while (at < csv.length) {
    let lineEnd = csv.indexOf(NEWLINE, at);
    if (lineEnd === -1) lineEnd = csv.length;
    let next = read(csv, at, address);
    if (next !== -1 && next <= lineEnd) {
      starts.set(address, count * words);
      next = read(csv, next, address);
      if (next !== -1 && next < lineEnd) {
        ends.set(address, count * words);
        codes[count] = names.at(csv, next, lineEnd);
        count += 1;
      }
    }
    at = lineEnd + 1;
  }
  return { starts: starts.slice(0, count * words), ends: ends.slice(0, count * words), codes: codes.slice(0, count) };
}

function compareWords(table: Uint32Array, i: number, value: ArrayLike<number>, words: number): number {
  for (let w = 0; w < words; w += 1) {
    const difference = table[i * words + w]! - value[w]!;
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The packages ship sorted, so this usually only checks. */
function sorted(rows: { starts: Uint32Array; ends: Uint32Array; codes: Uint16Array }, words: number) {
  const count = rows.codes.length;
  let inOrder = true;
  for (let i = 1; i < count && inOrder; i += 1)
    if (compareWords(rows.starts, i, rows.starts.subarray((i - 1) * words, i * words), words) < 0) inOrder = false;
  if (inOrder) return rows;
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) =>
    compareWords(rows.starts, a, rows.starts.subarray(b * words, (b + 1) * words), words),
  );
  const starts = new Uint32Array(count * words);
  const ends = new Uint32Array(count * words);
  const codes = new Uint16Array(count);
  order.forEach((from, to) => {
    starts.set(rows.starts.subarray(from * words, (from + 1) * words), to * words);
    ends.set(rows.ends.subarray(from * words, (from + 1) * words), to * words);
    codes[to] = rows.codes[from]!;
  });
  return { starts, ends, codes };
}

function lastAtOrBefore(count: number, startsAfter: (i: number) => boolean): number {
  let low = 0;
  let high = count - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (startsAfter(middle)) high = middle - 1;
    else {
      found = middle;
      low = middle + 1;
    }
  }
  return found;
}

/** Loopback, private, link-local, documentation and multicast ranges are no country's. */
const placeable = (parsed: ipaddr.IPv4 | ipaddr.IPv6) => parsed.range() === 'unicast';

/** RFC 6890 blocks, multicast and above, as [first, last]. */
const RESERVED_V4: ReadonlyArray<readonly [number, number]> = (
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 3],
  ] as const
).map(([base, bits]) => {
  const start = base.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  return [start, start + 2 ** (32 - bits) - 1] as const;
});

/** Read without ipaddr.js, which costs more than the search; anything but canonical dotted IPv4 gives null. */
function dottedNumber(address: string): number | null {
  const number = fourPartNumber(address);
  return number < 0 ? null : number;
}

/** Typed arrays searched by halving, so a lookup reads no file and makes no object per range; no address is kept. */
export function countryTable(ipv4Csv: Buffer | string, ipv6Csv: Buffer | string): CountryTable {
  const names = new Names();
  const bytes = (csv: Buffer | string) => (typeof csv === 'string' ? Buffer.from(csv, 'latin1') : csv);
  const v4: V4Table = sorted(readRows(bytes(ipv4Csv), 1, readDecimal, names), 1);
  const v6: V6Table = sorted(readRows(bytes(ipv6Csv), 4, readHex, names), 4);
  const find = (table: V4Table | V6Table, words: number, value: ArrayLike<number>): string => {
    const i = lastAtOrBefore(table.codes.length, (at) => compareWords(table.starts, at, value, words) > 0);
    return i >= 0 && compareWords(table.ends, i, value, words) >= 0 ? names.list[table.codes[i]!]! : UNKNOWN_COUNTRY;
  };
  // No comparison function and no array per lookup.
  const findV4 = (value: number): string => {
    const starts = v4.starts;
    let low = 0;
    let high = v4.codes.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (starts[middle]! > value) high = middle - 1;
      else {
        found = middle;
        low = middle + 1;
      }
    }
    return found >= 0 && v4.ends[found]! >= value ? names.list[v4.codes[found]!]! : UNKNOWN_COUNTRY;
  };
  const v6Words = new Uint32Array(4);
  // Registries hand out only 2000::/3, and ipaddr.js says documentation, Teredo and 6to4 are no country's.
  const inGlobalV6 = (words: Uint32Array): string => {
    const first = words[0]!;
    const top = first >>> 16;
    if (top < 0x2000 || top > 0x3fff || first === 0x20010db8 || first === 0x20010000 || top === 0x2002) return UNKNOWN_COUNTRY;
    return find(v6, 4, words);
  };
  return {
    ranges: { v4: v4.codes.length, v6: v6.codes.length },
    countryOf(address) {
      if (address === null) return UNKNOWN_COUNTRY;
      const dotted = dottedNumber(address);
      if (dotted !== null) return RESERVED_V4.some(([first, last]) => dotted >= first && dotted <= last) ? UNKNOWN_COUNTRY : findV4(dotted);
      if (address.includes(':') && readHex(Buffer.from(`${address},`, 'latin1'), 0, v6Words) !== -1) return inGlobalV6(v6Words);
      const parsed = parseAddress(address);
      if (parsed === null || !placeable(parsed)) return UNKNOWN_COUNTRY;
      if (parsed.kind() === 'ipv4') {
        const [a, b, c, d] = (parsed as ipaddr.IPv4).octets as [number, number, number, number];
        return find(v4, 1, [((a * 256 + b) * 256 + c) * 256 + d]);
      }
      const parts = (parsed as ipaddr.IPv6).parts;
      for (let w = 0; w < 4; w += 1) v6Words[w] = parts[2 * w]! * 65536 + parts[2 * w + 1]!;
      return find(v6, 4, v6Words);
    },
  };
}
