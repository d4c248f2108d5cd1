import { addDays } from '../days';
import { retryConditionalWrite } from '../store/conditional-write';
import { TIME_ZONES_ID, type TimeZones, type TimeZonesDocs, type ZoneSpan } from '../store/time-zones';
import { VISITORS_PK } from '../store/visitors';
import { UTC, type Zone } from '../zone';

/** A site's days: in the zone set now from the day it holds, and before that in the zones they were kept in. */
export interface SiteDays {
  zone: Zone;
  /** The local day from which `zone` holds; null when every day kept is in it. */
  from: string | null;
  /** The zone an instant's day is taken in. */
  zoneAt: (at: number) => Zone;
  /** The local day of an instant. */
  dayOf: (at: Date | number) => string;
  /** The zone a kept day's hours are in. */
  zoneOfDay: (day: string) => Zone;
}

export function siteDaysOf(spans: readonly ZoneSpan[], zoneOf: (name: string) => Zone): SiteDays {
  const held = [{ zone: UTC, from: null }, ...spans].map((span) => ({
    zone: zoneOf(span.zone),
    from: span.from,
    start: span.from === null ? -Infinity : zoneOf(span.zone).dayStart(span.from),
  }));
  const last = held[held.length - 1]!;
  const zoneAt = (at: number) => {
    for (let index = held.length - 1; index > 0; index -= 1) if (at >= held[index]!.start) return held[index]!.zone;
    return held[0]!.zone;
  };
  const zoneOfDay = (day: string) => [...held].reverse().find((span) => span.from === null || span.from <= day)!.zone;
  return { zone: last.zone, from: last.from, zoneAt, dayOf: (at) => zoneAt(+at).day(at), zoneOfDay };
}

/**
 * The zone set now, added when it is not the last kept: from the first local midnight after now, so no day kept is
 * split between two zones unnoticed, or from the start when the site has kept nothing yet. Null: nothing to write.
 */
export function withZone(current: TimeZones | null, zone: Zone, now: Date, keptNothing: boolean): TimeZones | null {
  const spans = current?.spans ?? [];
  if ((spans[spans.length - 1]?.zone ?? UTC) === zone.name) return null;
  const from = keptNothing && spans.length === 0 ? null : addDays(zone.day(now), 1);
  return {
    id: TIME_ZONES_ID,
    pk: VISITORS_PK,
    kind: 'time-zones',
    spans: [...spans, { zone: zone.name, from }],
    seen_at: [...(current?.seen_at ?? []), now.toISOString()],
  };
}

export interface SiteZoneDeps {
  docs: TimeZonesDocs;
  /** The site's zone as set. */
  zone: Zone;
  /** The clock, as the composition root's Clock gives it. */
  clock: { now(): Date };
  /** Whether the site's store holds no day yet. */
  keptNothing: () => Promise<boolean>;
  zoneOf: (name: string) => Zone;
}

/** Read once a process, the zone set recorded on first use; a store that failed is asked again next time. */
export function siteZones(deps: SiteZoneDeps): () => Promise<SiteDays> {
  let held: Promise<SiteDays> | undefined;
  const make = async () => {
    let kept = null as TimeZones | null;
    const decide = async (current: TimeZones | null) => {
      const empty = current === null && deps.zone.name !== UTC && (await deps.keptNothing());
      kept = withZone(current, deps.zone, deps.clock.now(), empty) ?? current;
      return kept === current ? null : kept;
    };
    await retryConditionalWrite(deps.docs, [], decide, 'the time zones');
    return siteDaysOf(kept?.spans ?? [], deps.zoneOf);
  };
  return () => {
    held ??= make();
    held.catch(() => (held = undefined));
    return held;
  };
}

/** The days of `other` that share instants with `day` of `days`: that day, or two when their zones differ. */
export function sharedDays(days: SiteDays, day: string, other: Pick<SiteDays, 'dayOf'>): string[] {
  const zone = days.zoneOfDay(day);
  return [...new Set([other.dayOf(zone.dayStart(day)), other.dayOf(zone.dayEnd(day) - 1)])];
}

/** Every day in one zone: where nothing else was kept, or the store cannot say. */
export const oneZone = (zone: Zone): SiteDays => ({
  zone,
  from: null,
  zoneAt: () => zone,
  dayOf: (at) => zone.day(at),
  zoneOfDay: () => zone,
});

/** What a read knows of its site's days: the zone set, and the days as the store kept them. */
export interface ReadZone {
  zone: Zone;
  days: () => Promise<SiteDays>;
}

/** The zone set, as if it held every day, when the store cannot say which zones it kept. */
export const daysOrSet = (deps: ReadZone): Promise<SiteDays> => deps.days().catch(() => oneZone(deps.zone));

/** What every read says of its days' zone. */
export const zoneOfAnswer = (days: Pick<SiteDays, 'zone' | 'from'>) => ({
  time_zone: days.zone.name,
  ...(days.from === null ? {} : { time_zone_from: days.from }),
});
