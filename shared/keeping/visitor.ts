import { stronger } from '../identity/kinds';
import type { SummaryDelta } from '../store/summary';
import { RECENT_DAYS, ttlFor, VISITORS_PK, type VisitorRecord } from '../store/visitors';
import { deltaOf } from './delta';
import type { Sighting } from './plan';

/** The record's fields that say who the visitor is and when, without the bookkeeping of pending changes. */
const sameFacts = (a: VisitorRecord, b: VisitorRecord) =>
  a.first_seen === b.first_seen && a.last_seen === b.last_seen && a.days_seen === b.days_seen && a.who === b.who && a.counted_on === b.counted_on;

/** Whether a day is one the record has not counted yet. */
function isNewDay(record: VisitorRecord, day: string): boolean {
  if (record.recent_days.includes(day)) return false;
  if (record.recent_days.length < RECENT_DAYS) return true;
  return day > record.recent_days[0]! || day < record.first_seen;
}

/**
 * A record with a day's sighting merged in: a day not seen before is one more day seen, in whatever order the days
 * come, and a day seen before changes nothing (which makes the merge idempotent); the kind by the Stronger rule; the
 * day counted among people is the earliest day seen as a person.
 */
export function withSighting(record: VisitorRecord | null, hash: string, seen: Sighting): VisitorRecord {
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
      ttl: ttlFor(seen.kind),
      pending: {},
    };
  }
  const who = stronger(record.who, seen.kind);
  const fresh = isNewDay(record, seen.day);
  const personDay = seen.kind === 'people' && (record.counted_on === null || seen.day < record.counted_on) ? seen.day : record.counted_on;
  return {
    ...record,
    first_seen: seen.day < record.first_seen ? seen.day : record.first_seen,
    last_seen: seen.day > record.last_seen ? seen.day : record.last_seen,
    days_seen: record.days_seen + (fresh ? 1 : 0),
    recent_days: fresh ? [...record.recent_days, seen.day].sort().slice(-RECENT_DAYS) : record.recent_days,
    who,
    counted_on: who === 'people' || who === 'self' ? personDay : null,
    ttl: ttlFor(who),
  };
}

/** The record after a message's sightings of it, and the change that makes to the summary; null when it changes nothing. */
export function sightedRecord(current: VisitorRecord | null, hash: string, sightings: readonly Sighting[]): { record: VisitorRecord; delta: SummaryDelta } | null {
  const record = sightings.reduce<VisitorRecord | null>((kept, seen) => withSighting(kept, hash, seen), current);
  if (record === null || (current !== null && sameFacts(current, record))) return null;
  return { record, delta: deltaOf(current, record) };
}
