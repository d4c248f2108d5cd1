import { stronger } from '../core/identity/who';
import { MOVED_DAYS, RECENT_DAYS, ttlFor, VISITORS_PK, type VisitorRecord } from '../core/store/visitors';
import type { Sighting } from './plan';
import { sameJson } from '../core/same-json';

function isNewDay(record: VisitorRecord, day: string): boolean {
  if (record.recent_days.includes(day)) return false;
  if (record.recent_days.length < RECENT_DAYS) return true;
  return day > record.recent_days[0]! || day < record.first_seen;
}

function movedDays(before: VisitorRecord, after: Pick<VisitorRecord, 'first_seen' | 'counted_on'>): string[] {
  const left = [before.first_seen, before.counted_on].filter(
    (day): day is string => day !== null && day !== after.first_seen && day !== after.counted_on,
  );
  if (left.length === 0) return before.moved_days;
  return [...new Set([...before.moved_days, ...left])].sort().slice(-MOVED_DAYS);
}

/** A day seen before changes nothing, so the merge is idempotent in any order; the kind merges by the Stronger rule. */
export function withSighting(record: VisitorRecord | null, hash: string, seen: Sighting, now: string): VisitorRecord {
  if (record === null) {
    return {
      id: hash,
      pk: VISITORS_PK,
      kind: 'visitor-record',
      first_seen: seen.day,
      last_seen: seen.day,
      days_seen: 1,
      recent_days: [seen.day],
      who: seen.kind,
      counted_on: seen.kind === 'people' ? seen.day : null,
      moved_days: [],
      counts_changed_at: now,
      ...(seen.kind === 'people' && seen.touch !== undefined ? { first_touch: seen.touch } : {}),
      ttl: ttlFor(seen.kind),
    };
  }
  const who = stronger(record.who, seen.kind);
  const fresh = isNewDay(record, seen.day);
  const personDay = seen.kind === 'people' && (record.counted_on === null || seen.day < record.counted_on) ? seen.day : record.counted_on;
  const first_seen = seen.day < record.first_seen ? seen.day : record.first_seen;
  const counted_on = who === 'people' || who === 'self' ? personDay : null;
  const countsChanged = who !== record.who || first_seen !== record.first_seen || counted_on !== record.counted_on;
  // The first touch moves with the day counted among people, and only then.
  const touched = counted_on !== record.counted_on && counted_on === seen.day && seen.touch !== undefined;
  return {
    ...record,
    ...(touched ? { first_touch: seen.touch } : {}),
    first_seen,
    last_seen: seen.day > record.last_seen ? seen.day : record.last_seen,
    days_seen: record.days_seen + (fresh ? 1 : 0),
    recent_days: fresh ? [...record.recent_days, seen.day].sort().slice(-RECENT_DAYS) : record.recent_days,
    who,
    counted_on,
    moved_days: movedDays(record, { first_seen, counted_on }),
    counts_changed_at: countsChanged ? now : record.counts_changed_at,
    ttl: ttlFor(who),
  };
}

/** Null when every day was already seen as such. */
export function sightedRecord(
  current: VisitorRecord | null,
  hash: string,
  sightings: readonly Sighting[],
  now: string,
): VisitorRecord | null {
  const record = sightings.reduce<VisitorRecord | null>((kept, seen) => withSighting(kept, hash, seen, now), current);
  if (record === null || (current !== null && sameJson(current, record))) return null;
  return record;
}
