/** A site's days and hours in its IANA time zone, from the platform's tz database, never from hand-made offsets. */

export const UTC = 'UTC';

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Every offset lies within −12:00 and +14:00, so a local midnight is within these of the UTC one. */
const SEARCH_BEFORE_MS = 15 * 3_600_000;
const SEARCH_AFTER_MS = 13 * 3_600_000;

/** A zone's clock, with its formatter and the days it worked out kept for the process that built it. */
export interface Zone {
  name: string;
  /** The wall clock at an instant. */
  at(at: number): Local;
  /** `yyyy-MM-dd`. */
  day(at: Date | number): string;
  hour(at: Date | number): number;
  /** The first instant of a local day: its midnight, or the moment the clocks skipped it. */
  dayStart(day: string): number;
  /** The instant the next local day begins. */
  dayEnd(day: string): number;
  /** `2026-11-01T01:00:00-05:00`: the instant as the zone's clock showed it, with its offset. */
  iso(at: number): string;
  /**
   * The local clock hours of a day, in order, each named by the clock at its start: 23 or 25 when clocks move an hour
   * (at :00 or at :45, as Chatham's do); a half-hour move (Lord Howe) leaves 24, one of them 30 or 90 minutes long.
   */
  hours(day: string): LocalHour[];
  /** The local hour an instant falls in, within its local day. */
  hourOf(at: number): LocalHour & { day: string };
}

export interface Local {
  /** `yyyy-MM-dd`. */
  day: string;
  hour: number;
  minute: number;
  /** Minutes ahead of UTC. */
  offset: number;
  /** Milliseconds ahead of UTC, to the second. */
  offsetMs: number;
}

/** One local clock hour of a day: `key` names it within the day (`HH`, and `HHb` for the hour the clocks repeat). */
export interface LocalHour {
  key: string;
  start: number;
  end: number;
}

const formatOf = (zone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

/** Whether the platform knows the zone as an IANA name. */
export function isZone(zone: string): boolean {
  // An offset is no zone: it never moves with the clocks.
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

const pad = (value: number) => (value < 10 ? `0${value}` : `${value}`);

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Small caches: a process asks about few days. */
function remembered<T>(make: (key: string) => T): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    const found = kept.get(key);
    if (found !== undefined) return found;
    const value = make(key);
    if (kept.size >= 512) kept.delete(kept.keys().next().value!);
    kept.set(key, value);
    return value;
  };
}

const modulo = (value: number, by: number) => ((value % by) + by) % by;

/** The wall clock, and its offset to the second, since a few zones' offsets before 1973 had seconds. */
function wallClock(format: Intl.DateTimeFormat, at: number): Local {
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(at)) parts[part.type] = part.value;
  const [year, month, day, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((type) => Number(parts[type]));
  const wall = Date.UTC(year!, month! - 1, day, hour, minute, second);
  const offsetMs = wall - (at - modulo(at, SECOND_MS));
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    hour: hour!,
    minute: minute!,
    offset: Math.round(offsetMs / MINUTE_MS),
    offsetMs,
  };
}

/** Local dates only move forward, so the first instant on or after the day is found by halving, to the second. */
function firstInstant(day: string, at: (at: number) => Local): number {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  let low = midnight - SEARCH_BEFORE_MS;
  let high = midnight + SEARCH_AFTER_MS;
  while (high - low > SECOND_MS) {
    const middle = low + Math.floor((high - low) / 2 / SECOND_MS) * SECOND_MS;
    if (at(middle).day >= day) high = middle;
    else low = middle;
  }
  return high;
}

/** A stretch of a day with one offset, in milliseconds ahead of UTC. */
interface Stretch {
  start: number;
  end: number;
  offset: number;
}

/** Clocks change at most once in an hour, so each change is found by halving between two hours that differ. */
function stretches(start: number, end: number, offsetAt: (at: number) => number): Stretch[] {
  const found: Stretch[] = [{ start, end, offset: offsetAt(start) }];
  for (let probe = start + HOUR_MS; probe < end + HOUR_MS; probe += HOUR_MS) {
    const last = found[found.length - 1]!;
    const until = Math.min(probe, end - SECOND_MS);
    if (until <= last.start || offsetAt(until) === last.offset) continue;
    let low = Math.max(last.start, until - HOUR_MS);
    let high = until;
    while (high - low > SECOND_MS) {
      const middle = low + Math.floor((high - low) / 2 / SECOND_MS) * SECOND_MS;
      if (offsetAt(middle) === last.offset) low = middle;
      else high = middle;
    }
    last.end = high;
    found.push({ start: high, end, offset: offsetAt(high) });
  }
  return found;
}

const hourOfClock = (wall: number) => Math.floor(modulo(wall, DAY_MS) / HOUR_MS);

/**
 * Where a day's hours begin: at its start, wherever the clock strikes an hour, and where the clock jumps at the moment
 * it would have struck into another hour than the one it leaves. So a clock set back keeps its hour going until it
 * strikes again (Lord Howe's 90 minutes), and one set forward past a strike keeps the hour it left (Chatham's 02:00
 * holds 03:45 to 04:00, and 03:00 is skipped).
 */
function hourStarts(parts: readonly Stretch[]): number[] {
  const starts: number[] = [];
  for (const [index, part] of parts.entries()) {
    const before = parts[index - 1];
    const struck = before !== undefined && modulo(part.start + before.offset, HOUR_MS) === 0;
    const moved = before !== undefined && hourOfClock(part.start + part.offset) !== hourOfClock(part.start + before.offset - SECOND_MS);
    if (index === 0 || (struck && moved)) starts.push(part.start);
    const wall = part.start + part.offset;
    for (let strike = part.start + modulo(-wall, HOUR_MS); strike < part.end; strike += HOUR_MS)
      if (strike !== starts[starts.length - 1]) starts.push(strike);
  }
  return starts;
}

function hoursBetween(start: number, end: number, at: (at: number) => Local): LocalHour[] {
  const starts = hourStarts(stretches(start, end, (instant) => at(instant).offsetMs));
  const seen = new Map<number, number>();
  return starts.map((first, index) => {
    const hour = at(first).hour;
    const times = seen.get(hour) ?? 0;
    seen.set(hour, times + 1);
    return { key: `${pad(hour)}${times === 0 ? '' : String.fromCharCode(97 + times)}`, start: first, end: starts[index + 1] ?? end };
  });
}

/** Throws on a name the platform does not know: settings check it first with `isZone`. */
export function zoneOf(name: string): Zone {
  const format = formatOf(name);
  const at = (instant: number) => wallClock(format, instant);
  const dayStart = remembered((day) => firstInstant(day, at));
  const dayEnd = (day: string) => dayStart(nextDay(day));
  const hours = remembered((day) => hoursBetween(dayStart(day), dayEnd(day), at));
  // Every hit asks its day: the last day's bounds answer most without the formatter.
  let last = { day: '', start: 0, end: 0 };
  const day = (instant: number) => {
    if (instant >= last.start && instant < last.end) return last.day;
    const found = at(instant).day;
    last = { day: found, start: dayStart(found), end: dayEnd(found) };
    return found;
  };
  const zone: Zone = {
    name,
    at,
    day: (instant) => day(+instant),
    hour: (instant) => at(+instant).hour,
    dayStart,
    dayEnd,
    iso(instant) {
      const local = at(instant);
      const sign = local.offset < 0 ? '-' : '+';
      const offset = Math.abs(local.offset);
      return `${local.day}T${pad(local.hour)}:${pad(local.minute)}:00${sign}${pad(Math.floor(offset / 60))}:${pad(offset % 60)}`;
    },
    hours,
    hourOf(instant) {
      const day = zone.day(instant);
      const hour = hours(day).find((one) => instant >= one.start && instant < one.end)!;
      return { ...hour, day };
    },
  };
  return zone;
}

/** Each zone built once for whoever holds the book: the composition root. */
export function zoneBook(): (name: string) => Zone {
  const zones = new Map<string, Zone>();
  return (name) => {
    const found = zones.get(name) ?? zoneOf(name);
    zones.set(name, found);
    return found;
  };
}
