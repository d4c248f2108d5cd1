import type { PersonIds } from '../core/identity/person-id';
import type { Classified, SeenRequest } from './classify';

const derives = (request: SeenRequest, classified: Classified): classified is Extract<Classified, { counted: true }> =>
  classified.counted && classified.hit.person !== null && request.visitor === undefined;

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
    derives(requests[index]!, result) ? { counted: true, hit: { ...result.hit, person: ids.get(result.hit.person!)! } } : result,
  );
}
