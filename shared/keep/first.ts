import { referrerGroup } from '../core/identity/referrer-groups';
import type { QueuedHit } from '../core/message';
import { IN_SITE } from '../core/store/activity';
import { campaignKey } from '../core/identity/campaign';
import { addPerson } from '../core/sketch';
import type { VisitorDayPart } from '../core/store/facts';
import type { First, FirstTouch } from '../core/store/first-touch';
import type { VisitorRecord } from '../core/store/visitors';

const isPersons = (hit: QueuedHit) => hit.person !== null && !hit.bot && !hit.self;

/**
 * Where a person's hits of one day in a message first came from: the earliest page load's source group, referrer host
 * and campaign (the earliest request's when none was a page load); null when none was a person's request.
 */
export function touchOf(hits: readonly QueuedHit[]): FirstTouch | null {
  const persons = hits.filter(isPersons).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  // A route change within the site is where a visit went, never where it came from.
  const first = persons.find((hit) => hit.page_load && hit.source !== IN_SITE) ?? persons[0];
  if (first === undefined) return null;
  const referrer = first.page_load && first.source !== IN_SITE ? first.source : null;
  return {
    source: referrerGroup(referrer),
    referrer,
    campaign: first.page_load && first.campaign ? campaignKey(first.campaign) : null,
  };
}

/** A record's first day among people and first touch; null while it is not counted as a person. */
export function firstOfRecord(record: VisitorRecord | null): First | null {
  if (record === null || record.counted_on === null) return null;
  return { day: record.counted_on, touch: record.first_touch ?? null };
}

/**
 * A person's request adds them to the visitor-day's people by first day (for the filtered retention cells), and on
 * their first day to its new people: a sketch's registers, never the hash. A first day after the visitor-day's (a late
 * hit) is no one's cohort.
 */
export function addFirst(part: VisitorDayPart, hit: QueuedHit, first: First | undefined): void {
  if (!isPersons(hit) || first === undefined || first.day > part.day) return;
  addPerson(((part.first_days ??= {})[first.day] ??= {}), hit.person!);
  if (first.day === part.day) addPerson((part.new_sketch ??= {}), hit.person!);
}
