import type { RecentFacts } from '../../shared/core/store/recent';
import type { Fact } from '../../shared/core/store/facts';
import type { MemoryDocuments } from './documents';

/** Memory's watermarks are no clock, so the facts are picked by a part seen at or after `since`. */
export function memoryRecentFacts(documents: MemoryDocuments): RecentFacts {
  return {
    partsSince: (day, since) => {
      const at = since.toISOString();
      const facts = documents.query<Fact>((doc) => doc.kind === 'fact' && doc.visitor_days.some((part) => part.last_seen >= at), day);
      return Promise.resolve(facts.flatMap((fact) => fact.visitor_days));
    },
  };
}
