import { canonicalAddress } from '../../shared/core/identity/network';

/** One request as a log line told it, before anything is classified: what the import command reads of each line. */
export interface LogRecord {
  at: Date;
  /** The client's address as logged (checked by the reader: an IPv4 or IPv6 address). */
  address: string;
  /** The user agent as logged ('' when the request sent none); null when the format logs no agent (common). */
  userAgent: string | null;
  method: string;
  /** The request target as logged: the path with its query string. */
  path: string;
  status: number | null;
  referrer: string | null;
  /** The virtual host the request was for, when the format logs it. */
  host: string | null;
}

/** What reading one line gave: a request, nothing (a comment, a blank, an entry that is not a request), or why it cannot be read. */
export type LineRead = { kind: 'record'; record: LogRecord } | { kind: 'none'; why?: string } | { kind: 'unreadable'; why: string };

/** Reads the lines of one file in order; a format whose header says what follows (W3C's #Fields) keeps it between lines. */
export interface LineReader {
  read(line: string): LineRead;
}

/** A format the command reads: its name, and a reader for each file. */
export interface LogFormat {
  name: string;
  reader(): LineReader;
}

export const unreadable = (why: string): LineRead => ({ kind: 'unreadable', why });
export const none = (why?: string): LineRead => (why === undefined ? { kind: 'none' } : { kind: 'none', why });

/**
 * A logged field with its escapes read: nginx writes a byte it will not print as `\xHH` (a quote as `\x22`), Apache
 * writes `\"`, `\\` and `\xhh`; the bytes are read as UTF-8.
 */
export function unescaped(text: string): string {
  if (!text.includes('\\')) return text;
  const bytes: number[] = [];
  const raw = Buffer.from(text, 'utf8');
  for (let i = 0; i < raw.length; i += 1) {
    const byte = raw[i]!;
    if (byte !== 0x5c || i + 1 >= raw.length) {
      bytes.push(byte);
      continue;
    }
    const next = raw[i + 1]!;
    if (next === 0x78 && i + 3 < raw.length) {
      const hex = raw.toString('latin1', i + 2, i + 4);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 3;
        continue;
      }
    }
    const named: Record<number, number> = { 0x6e: 0x0a, 0x74: 0x09, 0x72: 0x0d, 0x62: 0x08, 0x76: 0x0b };
    bytes.push(named[next] ?? next);
    i += 1;
  }
  return Buffer.from(bytes).toString('utf8');
}

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

/** The common log format's time, `10/Oct/2000:13:55:36 -0700` (nginx's $time_local, Apache's %t), or null. */
export function clfTime(text: string): Date | null {
  const match = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? ([+-])(\d{2}):?(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const month = MONTHS[match[2]!];
  if (month === undefined) return null;
  const fraction = match[7] ? Number(`0.${match[7]}`) * 1000 : 0;
  const local = Date.UTC(Number(match[3]), month, Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6]), fraction);
  const offset = (match[8] === '-' ? -1 : 1) * (Number(match[9]) * 60 + Number(match[10])) * 60_000;
  const at = new Date(local - offset);
  return Number.isNaN(at.getTime()) || Number(match[1]) > 31 || Number(match[4]) > 23 ? null : at;
}

/** An ISO 8601 time with a zone (nginx's $time_iso8601), or null. */
export function isoTime(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(text.trim())) return null;
  const at = new Date(text.trim());
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Seconds since the epoch with a fraction (nginx's $msec, Caddy's ts), or null. */
export function epochTime(value: string | number): Date | null {
  const seconds = typeof value === 'number' ? value : /^\d{9,11}(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  const at = new Date(Math.round(seconds * 1000));
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The request line, `GET /path?query HTTP/1.1`, as its method and target; null when it is not one (a TLS handshake sent to port 80). */
export function requestLine(text: string): { method: string; path: string } | null {
  const match = /^([A-Za-z]{1,20}) (\S+)(?: HTTP\/\d(?:\.\d)?)?$/.exec(text);
  return match ? { method: match[1]!.toUpperCase(), path: match[2]! } : null;
}

/**
 * The text as a string of its own. A line is a slice of the chunk it was read from, and so is every field a pattern
 * takes from it: V8 keeps the whole chunk (a quarter of a megabyte) alive for as long as one of its slices is, so
 * anything kept past its line (a cache's key, or a value read from one) is first copied out of the chunk, or memory
 * would grow with the file, a chunk for each entry kept.
 */
export const flat = (text: string): string => Buffer.from(text, 'utf16le').toString('utf16le');

const addresses = new Map<string, string | null>();

/** An IPv4 address written as its canonical self: four numbers 0 to 255, no leading zeros. */
const DOTTED = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * The address as logged in its canonical spelling (null when it is not one), read once: a visitor's lines repeat it,
 * and reading an address costs more than the rest of a line.
 */
export function addressOf(raw: string): string | null {
  if (DOTTED.test(raw)) return raw;
  let canonical = addresses.get(raw);
  if (canonical === undefined) {
    if (addresses.size >= 50_000) addresses.clear();
    // Kept past the line: the key, and the address read from it, out of the chunk.
    const key = flat(raw);
    canonical = canonicalAddress(key);
    addresses.set(key, canonical);
  }
  return canonical;
}

/** `-` (and the empty field) is what logs write for a value the request did not have. */
export const dashed = (text: string | undefined): string | null => (text === undefined || text === '-' || text === '' ? null : text);
