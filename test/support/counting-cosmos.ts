import type { Container } from '@azure/cosmos';
import { inLanes } from '../../shared/core/lanes';
import type { VisitorRecord } from '../../shared/core/store';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { hex } from './counting';

/** Creates documents straight in the container, `lanes` at a time: a fixture of many visitors without keeping each hit. */
export async function createAll(container: Container, docs: readonly object[], lanes = 32): Promise<void> {
  await inLanes(docs, lanes, (doc) => container.items.create(doc));
}

/** A visitor's record as keep-hits leaves it after one visit on `day`, a person's or (kept 90 days) a scanner's. */
export const visitorRecord = (id: string, day: string, scanner: boolean): VisitorRecord => ({
  id,
  pk: VISITORS_PK,
  kind: 'visitor-record',
  first_seen: day,
  last_seen: day,
  days_seen: 1,
  recent_days: [day],
  who: scanner ? 'scanners' : 'people',
  counted_on: scanner ? null : day,
  moved_days: [],
  counts_changed_at: `${day}T12:00:00.000Z`,
  ttl: scanner ? 7_776_000 : -1,
});

/** A person's visitor record as keep-hits leaves it, its id the hash of `name`. */
export const personRecord = (name: string, day: string): VisitorRecord => visitorRecord(hex(name), day, false);
