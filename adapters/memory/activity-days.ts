import type { VisitorDay } from '../../shared/core/store/activity';
import { firstSeenFirst, isAfter, type ActivityDays } from '../../shared/core/store/activity-days';
import type { MemoryDocuments } from './documents';

export function memoryActivityDays(documents: MemoryDocuments): ActivityDays {
  const ofDay = (day: string, where: (doc: VisitorDay) => boolean) =>
    documents.query<VisitorDay>((doc) => doc.pk === day && doc.kind === 'visitor-day' && where(doc), day).sort(firstSeenFirst);
  return {
    retention: 'kept in memory until the host restarts',
    pageOn: (day, after, limit) => Promise.resolve(ofDay(day, (doc) => isAfter(doc, after)).slice(0, limit)),
    ofTokens: (day, tokens) => Promise.resolve(ofDay(day, (doc) => tokens.includes(doc.token))),
  };
}
