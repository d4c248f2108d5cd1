import ipaddr from 'ipaddr.js';
import { fourPartNumber, parseAddress } from './network';

/** The country of an address no table places (loopback, private, documentation, unknown, unreadable). */
export const UNKNOWN_COUNTRY = 'XX';

/** Where an address is, as its two-letter country code (ISO 3166-1 alpha-2, upper case), nothing finer. */
export interface CountryLookup {
  countryOf(address: string | null): string;
}

/** A lookup that places nowhere: every address is UNKNOWN_COUNTRY. */
export const noCountries: CountryLookup = { countryOf: () => UNKNOWN_COUNTRY };

interface V4Table {
  starts: Uint32Array;
  ends: Uint32Array;
  codes: Uint16Array;
}

/** IPv6 ranges: each start and end as four 32-bit words, most significant first (row i at 4i … 4i+3). */
interface V6Table {
  starts: Uint32Array;
  ends: Uint32Array;
  codes: Uint16Array;
}

/** The table in memory: sorted, non-overlapping ranges (start, end inclusive) with a country each. */
export interface CountryTable extends CountryLookup {
  readonly ranges: { v4: number; v6: number };
}

const CODE = /^[A-Z]{2}$/;
const COMMA = 44;
const NEWLINE = 10;
const ZERO = 48;

/** The country names met so far, each with its index (a Uint16 per range points into them). */
class Names {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  /** The index of each two-byte code already met, by its bytes (-1: not yet), so a row costs no string. */
  private readonly byBytes = new Int16Array(65536).fill(-1);

  /** The index of the code between `from` and `to` in the bytes. */
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

/** Reads one address from `csv` at `at` into `into`, up to the comma it consumes; the next position, or -1. */
type ReadAddress = (csv: Buffer, at: number, into: Uint32Array) => number;

/** A decimal IPv4 address (`16777216`), as the `*-ipv4-num.csv` files hold them. */
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

/** An IPv6 address in text (`2001:200::`), as the `*-ipv6.csv` files hold them: eight 16-bit groups, `::` once. */
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

/**
 * Reads lines of `start,end,CC` byte by byte, each address into `words` 32-bit words (most significant first),
 * without a string or a BigInt per address: the tables have hundreds of thousands of rows, read once per process.
 * A line that does not read is skipped.
 */
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

/** Compares the words of row `i` of `table` with `value` (both most significant first): <0, 0 or >0. */
function compareWords(table: Uint32Array, i: number, value: ArrayLike<number>, words: number): number {
  for (let w = 0; w < words; w += 1) {
    const difference = table[i * words + w]! - value[w]!;
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The rows in order of their starts; the packages ship sorted, so this only checks, unless they are not. */
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

/** The last range whose start is at or before the value (binary search), or -1. */
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

/** Address ranges ipaddr.js names that no country holds: loopback, private, link-local, documentation, multicast, … */
const placeable = (parsed: ipaddr.IPv4 | ipaddr.IPv6) => parsed.range() === 'unicast';

/** The IPv4 blocks no country holds (RFC 6890 and multicast and above), as [first, last] numbers. */
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

/**
 * A canonical dotted IPv4 address (as the ingest hands it over) as its number, read without ipaddr.js, which costs
 * more than the search itself; null for anything else (IPv6, a port, leading zeros), which takes the general path.
 */
function dottedNumber(address: string): number | null {
  const number = fourPartNumber(address);
  return number < 0 ? null : number;
}

/**
 * The country table built from the two CSVs of an `@ip-location-db/*-country` package (`*-ipv4-num.csv`,
 * `*-ipv6.csv`, whose addresses are text): typed arrays of range starts and ends with a country index each, searched by halving, so a
 * lookup reads no file and makes no object per range. The address itself is never kept by it.
 */
export function countryTable(ipv4Csv: Buffer | string, ipv6Csv: Buffer | string): CountryTable {
  const names = new Names();
  const bytes = (csv: Buffer | string) => (typeof csv === 'string' ? Buffer.from(csv, 'latin1') : csv);
  const v4: V4Table = sorted(readRows(bytes(ipv4Csv), 1, readDecimal, names), 1);
  const v6: V6Table = sorted(readRows(bytes(ipv6Csv), 4, readHex, names), 4);
  const find = (table: V4Table | V6Table, words: number, value: ArrayLike<number>): string => {
    const i = lastAtOrBefore(table.codes.length, (at) => compareWords(table.starts, at, value, words) > 0);
    return i >= 0 && compareWords(table.ends, i, value, words) >= 0 ? names.list[table.codes[i]!]! : UNKNOWN_COUNTRY;
  };
  // find(v4, 1, [value]) for one IPv4 number, without a comparison function or an array made for each lookup.
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
  // Global unicast (2000::/3) is all the registries hand out; within it, documentation (2001:db8::/32), Teredo
  // (2001::/32) and 6to4 (2002::/16) are no country's, as ipaddr.js says.
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
