import type { Container } from '@azure/cosmos';
import { inLanes } from '../../shared/lanes';
import type { VisitorRecord } from '../../shared/store';
import { VISITORS_PK } from '../../shared/store/visitors';
import { hex } from './counting';

/** Creates documents straight in the container, `lanes` at a time: a fixture of many visitors without keeping each hit. */
export async function createAll(container: Container, docs: readonly object[], lanes = 32): Promise<void> {
  await inLanes(docs, lanes, (doc) => container.items.create(doc));
}

/** A person's visitor record as keep-hits leaves it. */
export const personRecord = (name: string, day: string): VisitorRecord => ({
  id: hex(name),
  pk: VISITORS_PK,
  kind: 'visitor-record',
  first_seen: day,
  last_seen: day,
  days_seen: 1,
  recent_days: [day],
  who: 'people',
  counted_on: day,
  moved_days: [],
  counts_changed_at: `${day}T12:00:00.000Z`,
  ttl: -1,
});
