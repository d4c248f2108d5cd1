import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isZone, zoneOf } from '../../shared/core/zone';

// The expected offsets are written out from each zone's 2026 rules, so the module is checked against them, not itself.
const H = 3_600_000;
const M = 60_000;
const at = (iso: string) => Date.parse(iso);

/** Minutes ahead of UTC from the instant given, in order. */
const RULES: Record<string, Array<[number, number]>> = {
  'America/New_York': [
    [-Infinity, -300],
    [at('2026-03-08T07:00:00Z'), -240],
    [at('2026-11-01T06:00:00Z'), -300],
  ],
  'Asia/Kolkata': [[-Infinity, 330]],
  'Asia/Kathmandu': [[-Infinity, 345]],
  'Asia/Tehran': [[-Infinity, 210]],
  'America/St_Johns': [
    [-Infinity, -210],
    [at('2026-03-08T05:30:00Z'), -150],
    [at('2026-11-01T04:30:00Z'), -210],
  ],
  'Australia/Lord_Howe': [
    [-Infinity, 660],
    [at('2026-04-04T15:00:00Z'), 630],
    [at('2026-10-03T15:30:00Z'), 660],
  ],
  'Pacific/Chatham': [
    [-Infinity, 825],
    [at('2026-04-04T14:00:00Z'), 765],
    [at('2026-09-26T14:00:00Z'), 825],
  ],
  'Australia/Sydney': [
    [-Infinity, 660],
    [at('2026-04-04T16:00:00Z'), 600],
    [at('2026-10-03T16:00:00Z'), 660],
  ],
};

/** Every zone the platform knows, read by another of its formatters than the module's: its offset's name. */
const ALL_ZONES = Intl.supportedValuesOf('timeZone');
const offsetNames = new Map<string, Intl.DateTimeFormat>();
function platformOffset(zone: string, instant: number): number {
  const format = offsetNames.get(zone) ?? new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  offsetNames.set(zone, format);
  const name = format.formatToParts(instant).find((part) => part.type === 'timeZoneName')!.value;
  const [, sign, hours, minutes] = /^GMT(?:([+-])(\d\d):(\d\d))?$/.exec(name)!;
  return sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

/** The rules above hold from late 2025 to early 2027. */
const WRITTEN_OUT = [at('2025-12-25T00:00:00Z'), at('2027-01-05T00:00:00Z')] as const;

const offsetOf = (zone: string, instant: number) =>
  RULES[zone] === undefined || instant < WRITTEN_OUT[0] || instant >= WRITTEN_OUT[1]
    ? platformOffset(zone, instant)
    : RULES[zone].filter(([from]) => instant >= from).pop()![1];

/** The wall clock by the rule: the instant moved by its offset, read as UTC. */
function expected(zone: string, instant: number) {
  const wall = new Date(instant + offsetOf(zone, instant) * M).toISOString();
  return { day: wall.slice(0, 10), hour: Number(wall.slice(11, 13)), minute: Number(wall.slice(14, 16)) };
}

/**
 * A day's hours by the rule, minute by minute: one begins at the day's start, where the clock strikes, and where it
 * jumps from the last minute of an hour into another hour; each is named by the clock at its start.
 */
function expectedHours(zone: string, day: string) {
  let start = Date.parse(`${day}T00:00:00Z`) - 15 * H;
  while (expected(zone, start).day < day) start += M;
  const hours: Array<{ key: string; start: number; end: number }> = [];
  const seen = new Map<number, number>();
  let instant = start;
  for (; expected(zone, instant).day === day; instant += M) {
    const now = expected(zone, instant);
    const before = expected(zone, instant - M);
    if (instant !== start && now.minute !== 0 && (before.minute !== 59 || before.hour === now.hour)) continue;
    const times = seen.get(now.hour) ?? 0;
    seen.set(now.hour, times + 1);
    if (hours.length > 0) hours[hours.length - 1]!.end = instant;
    hours.push({ key: `${String(now.hour).padStart(2, '0')}${['', 'b', 'c'][times]}`, start: instant, end: instant });
  }
  hours[hours.length - 1]!.end = instant;
  return hours;
}

const YEAR_2026 = fc.integer({ min: at('2026-01-02T00:00:00Z'), max: at('2026-12-30T00:00:00Z') });
/** Offsets have been whole minutes everywhere since 1973. */
const YEARS = fc.integer({ min: at('1973-01-02T00:00:00Z'), max: at('2037-12-30T00:00:00Z') });
/** Near the changes, where mistakes hide. */
const NEAR_CHANGES = fc
  .tuple(
    fc.constantFrom(...Object.values(RULES).flatMap((rules) => rules.slice(1).map(([from]) => from))),
    fc.integer({ min: -30 * H, max: 30 * H }),
  )
  .map(([change, delta]) => change + delta);
const INSTANTS = fc.oneof(YEAR_2026, NEAR_CHANGES);
/** The zones written out above, and any other the platform knows, over the years since offsets were whole minutes. */
const ZONES_AND_INSTANTS = fc.oneof(
  fc.tuple(fc.constantFrom(...Object.keys(RULES)), INSTANTS),
  fc.tuple(fc.constantFrom(...ALL_ZONES), fc.oneof(YEAR_2026, YEARS)),
);
const RUNS = 1000;

describe('a zone answers the local day and hour of an instant', () => {
  it('as each zone’s rules give them, over generated instants', () => {
    fc.assert(
      fc.property(ZONES_AND_INSTANTS, ([name, instant]) => {
        const zone = zoneOf(name);
        const { day, hour } = expected(name, instant);
        expect({ day: zone.day(instant), hour: zone.hour(instant) }).toEqual({ day, hour });
      }),
      { numRuns: 2 * RUNS },
    );
  });

  it('its day starts and ends around it, and one of its local hours holds it', () => {
    fc.assert(
      fc.property(ZONES_AND_INSTANTS, ([name, instant]) => {
        const zone = zoneOf(name);
        const day = zone.day(instant);
        expect(zone.dayStart(day)).toBeLessThanOrEqual(instant);
        expect(zone.dayEnd(day)).toBeGreaterThan(instant);
        expect(zone.day(zone.dayStart(day))).toBe(day);
        expect(zone.day(zone.dayStart(day) - 1)).not.toBe(day);
        const hour = zone.hourOf(instant);
        expect(hour.start).toBeLessThanOrEqual(instant);
        expect(hour.end).toBeGreaterThan(instant);
        expect(Number(hour.key.slice(0, 2))).toBe(expected(name, hour.start).hour);
      }),
      { numRuns: RUNS },
    );
  });

  it("a day's hours are those the rule gives, from its start to its end, each named by the clock at its start", () => {
    fc.assert(
      fc.property(ZONES_AND_INSTANTS, ([name, instant]) => {
        const zone = zoneOf(name);
        const day = zone.day(instant);
        const hours = zone.hours(day);
        expect(hours).toEqual(expectedHours(name, day));
        expect(hours[0]!.start).toBe(zone.dayStart(day));
        expect(hours[hours.length - 1]!.end).toBe(zone.dayEnd(day));
      }),
      { numRuns: RUNS / 10 },
    );
  });
});

describe('the days clocks change', () => {
  const lengths = (name: string, day: string) =>
    zoneOf(name)
      .hours(day)
      .map((hour) => (hour.end - hour.start) / M);

  it('New York: 8 March has 23 hours, 1 November 25, the repeated 01:00 once at each offset', () => {
    const zone = zoneOf('America/New_York');
    expect(zone.hours('2026-03-08')).toHaveLength(23);
    expect(zone.hours('2026-03-08').map((hour) => hour.key)).not.toContain('02');
    expect(zone.dayEnd('2026-03-08') - zone.dayStart('2026-03-08')).toBe(23 * H);
    const fall = zone.hours('2026-11-01');
    expect(fall).toHaveLength(25);
    expect(zone.dayEnd('2026-11-01') - zone.dayStart('2026-11-01')).toBe(25 * H);
    expect(fall.slice(1, 3).map((hour) => zone.iso(hour.start))).toEqual(['2026-11-01T01:00:00-04:00', '2026-11-01T01:00:00-05:00']);
    expect(zone.hours('2026-06-01')).toHaveLength(24);
  });

  it('Sydney: 5 April has 25 hours and 4 October 23', () => {
    const zone = zoneOf('Australia/Sydney');
    expect(zone.hours('2026-04-05')).toHaveLength(25);
    expect(zone.hours('2026-10-04')).toHaveLength(23);
    expect(zone.iso(zone.dayStart('2026-10-04'))).toBe('2026-10-04T00:00:00+10:00');
  });

  it('Lord Howe moves half an hour: 24 hours, one of 90 minutes in April and one of 30 in October', () => {
    const april = lengths('Australia/Lord_Howe', '2026-04-05');
    expect(april).toHaveLength(24);
    expect(april.filter((minutes) => minutes !== 60)).toEqual([90]);
    const october = lengths('Australia/Lord_Howe', '2026-10-04');
    expect(october).toHaveLength(24);
    expect(october.filter((minutes) => minutes !== 60)).toEqual([30]);
  });

  it('Chatham moves an hour at :45: 5 April has 25 hours, 03:00 twice, and 27 September 23, without 03:00', () => {
    const zone = zoneOf('Pacific/Chatham');
    const april = zone.hours('2026-04-05');
    expect(april).toHaveLength(25);
    expect(lengths('Pacific/Chatham', '2026-04-05')).toEqual(Array.from({ length: 25 }, () => 60));
    expect(april.slice(3, 5).map((hour) => zone.iso(hour.start))).toEqual(['2026-04-05T03:00:00+13:45', '2026-04-05T03:00:00+12:45']);
    expect(april.slice(3, 5).map((hour) => hour.key)).toEqual(['03', '03b']);
    const september = zone.hours('2026-09-27');
    expect(september).toHaveLength(23);
    expect(lengths('Pacific/Chatham', '2026-09-27')).toEqual(Array.from({ length: 23 }, () => 60));
    expect(september.map((hour) => hour.key)).not.toContain('03');
    expect(september.slice(2, 4).map((hour) => zone.iso(hour.start))).toEqual(['2026-09-27T02:00:00+12:45', '2026-09-27T04:00:00+13:45']);
  });

  it("St John's: 8 March has 23 hours and 1 November 25", () => {
    const zone = zoneOf('America/St_Johns');
    expect(zone.hours('2026-03-08')).toHaveLength(23);
    expect(zone.hours('2026-11-01')).toHaveLength(25);
    expect(
      zone
        .hours('2026-11-01')
        .map((hour) => hour.key)
        .slice(0, 3),
    ).toEqual(['00', '01', '01b']);
    expect(zone.dayEnd('2026-11-01') - zone.dayStart('2026-11-01')).toBe(25 * H);
  });

  it('Kolkata, Kathmandu and Tehran keep 24 hours every day of 2026', () => {
    for (const name of ['Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Tehran'])
      for (const day of ['2026-03-08', '2026-03-22', '2026-03-29', '2026-04-05', '2026-09-21', '2026-10-25', '2026-11-01'])
        expect(lengths(name, day)).toEqual(Array.from({ length: 24 }, () => 60));
  });

  it('+05:30, +05:45, −03:30, +03:30 and +13:45 keep whole local hours', () => {
    for (const [name, day, first] of [
      ['Asia/Kolkata', '2026-11-01', '2026-10-31T18:30:00Z'],
      ['Asia/Kathmandu', '2026-11-01', '2026-10-31T18:15:00Z'],
      ['America/St_Johns', '2026-01-10', '2026-01-10T03:30:00Z'],
      ['Asia/Tehran', '2026-06-10', '2026-06-09T20:30:00Z'],
      ['Pacific/Chatham', '2026-01-10', '2026-01-09T10:15:00Z'],
    ] as const) {
      const zone = zoneOf(name);
      expect(zone.dayStart(day)).toBe(at(first));
      expect(lengths(name, day)).toEqual(Array.from({ length: 24 }, () => 60));
      expect(zone.hours(day).every((hour) => zone.iso(hour.start).slice(14, 19) === '00:00')).toBe(true);
    }
  });

  it('names only zones the platform knows', () => {
    expect(isZone('Europe/Paris')).toBe(true);
    expect(isZone('UTC')).toBe(true);
    expect(isZone('Mars/Olympus_Mons')).toBe(false);
    expect(isZone('+05:30')).toBe(false);
  });
});
