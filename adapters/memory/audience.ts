import type { VisitorDayRange } from '../../shared/export/range';
import type { RecentFacts } from '../../shared/now/recent';
import type { VisitorDay } from '../../shared/store/activity';
import type { Fact } from '../../shared/store/facts';
import type { MemoryDocuments } from './documents';

/** The last minutes' facts in memory, whose marks are no clock: the facts with a part seen at or after `since`. */
export function memoryRecentFacts(documents: MemoryDocuments): RecentFacts {
  return {
    partsSince: (day, since) => {
      const at = since.toISOString();
      const facts = documents.query<Fact>((doc) => doc.kind === 'fact' && doc.visitor_days.some((part) => part.last_seen >= at), day);
      return Promise.resolve(facts.flatMap((fact) => fact.visitor_days));
    },
  };
}

/** The visitor-days of a range of days in memory: one query. */
export function memoryVisitorDayRange(documents: MemoryDocuments): VisitorDayRange {
  return {
    visitorDaysBetween: (from, to) =>
      Promise.resolve(
        documents
          .query<VisitorDay>((doc) => doc.kind === 'visitor-day' && doc.pk >= from && doc.pk <= to)
          .sort((a, b) => (a.day === b.day ? (a.id < b.id ? -1 : 1) : a.day < b.day ? -1 : 1)),
      ),
  };
}
