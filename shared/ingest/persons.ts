import type { PersonIds } from '../core/identity/person-id';
import type { Classified, SeenRequest } from './classify';
import type { QueuedHit } from '../core/message';
import type { Clock } from '../core/ports/clock';
import { migrationStatus, type Migrations } from '../core/store/migrations';
import { PERSON_IDS_MIGRATION } from '../core/store/person-moves';

const derives = (request: SeenRequest, classified: Classified): classified is Extract<Classified, { counted: true }> =>
  classified.counted && classified.hit.person !== null && request.visitor === undefined;

/** An id other than the HMAC value is derived, and the hit says so, so keep-hits never maps it again. */
const derivedHit = (hit: QueuedHit, id: string): QueuedHit => (id === hit.person ? hit : { ...hit, person: id, person_derived: true });

/** How often a process asks whether the switch is done, until it is. */
export const SWITCH_READ_MS = 60_000;

/**
 * The HMAC value until the person-ids migration is done in every store (each site's and all sites'), then the derived
 * id: hits queued before keep the old id, which keep-hits maps. Once done it stays done, so the status is no longer read.
 */
export function switchedPersonIds(stores: ReadonlyArray<Pick<Migrations, 'read'>>, derived: PersonIds, clock: Clock): PersonIds {
  const left = new Set(stores);
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<boolean> | null = null;
  // A store found done is not asked again.
  const doneIn = async (store: Pick<Migrations, 'read'>) => {
    if ((await migrationStatus(store, PERSON_IDS_MIGRATION)).done) left.delete(store);
  };
  const isDone = async () => {
    if (left.size === 0 || clock.now().getTime() - readAt < SWITCH_READ_MS) return left.size === 0;
    reading ??= Promise.all([...left].map(doneIn)).then(
      () => ((readAt = clock.now().getTime()), (reading = null), left.size === 0),
      // An unread status leaves the old id, which keep-hits maps; the next hit asks again.
      () => ((reading = null), false),
    );
    return reading;
  };
  return { of: async (hmacValue) => ((await isDone()) ? derived.of(hmacValue) : hmacValue) };
}

/** Each counted hit's person HMAC value becomes its person id; a value a batch holds twice is derived once. */
export async function withPersonIds(
  requests: readonly SeenRequest[],
  classified: readonly Classified[],
  persons: PersonIds,
): Promise<Classified[]> {
  const values = new Set<string>();
  classified.forEach((result, index) => {
    if (derives(requests[index]!, result)) values.add(result.hit.person!);
  });
  const ids = new Map(await Promise.all([...values].map(async (value) => [value, await persons.of(value)] as const)));
  return classified.map((result, index) =>
    derives(requests[index]!, result) ? { counted: true, hit: derivedHit(result.hit, ids.get(result.hit.person!)!) } : result,
  );
}
