import type { Container } from '@azure/cosmos';
import type { VisitorRecord } from '../../shared/core/store';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { hex } from './counting';

/**
 * Creates documents straight in the container, in bulk (the SDK sends up to 100 a call): a fixture of many visitors
 * without keeping each hit. Throws unless every one was created.
 */
export async function createAll(container: Container, docs: readonly (object & { pk: string })[]): Promise<void> {
  const results = await container.items.executeBulkOperations(
    docs.map((doc) => ({ operationType: 'Create' as const, partitionKey: doc.pk, resourceBody: doc })),
  );
  const failed = results.filter((result) => result.error !== undefined || (result.response?.statusCode ?? 0) >= 300);
  if (failed.length > 0)
    throw new Error(
      `${failed.length} of ${docs.length} documents were not created: ${failed[0]!.error?.message ?? failed[0]!.response?.statusCode}`,
    );
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
