import { referrerGroup } from '../core/identity/referrer-groups';
import type { QueuedHit } from '../core/message';
import { campaignKey } from '../core/identity/campaign';
import { registerOf } from '../core/rollup/sketch';
import type { VisitorDayPart } from '../core/store/facts';
import type { First, FirstTouch } from '../core/store/first-touch';
import type { VisitorRecord } from '../core/store/visitors';

const isPersons = (hit: QueuedHit) => hit.person !== null && !hit.bot && !hit.self;

/** The earliest page load's touch, else the earliest request's; null when none was a person's. */
export function touchOf(hits: readonly QueuedHit[]): FirstTouch | null {
  const persons = hits.filter(isPersons).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const first = persons.find((hit) => hit.page_load) ?? persons[0];
  if (first === undefined) return null;
  const referrer = first.page_load ? first.source : null;
  return {
    source: referrerGroup(referrer),
    referrer,
    campaign: first.page_load && first.campaign ? campaignKey(first.campaign) : null,
  };
}

/** Null while the record is not counted as a person. */
export function firstOfRecord(record: VisitorRecord | null): First | null {
  if (record === null || record.counted_on === null) return null;
  return { day: record.counted_on, touch: record.first_touch ?? null };
}

/** A sketch's registers, never the hash. */
export function addFirst(part: VisitorDayPart, hit: QueuedHit, first: First | undefined): void {
  if (!isPersons(hit) || first === undefined || first.day !== part.day) return;
  const [register, rank] = registerOf(hit.person!);
  part.new_sketch ??= {};
  if ((part.new_sketch[register] ?? 0) < rank) part.new_sketch[register] = rank;
}
