import type { VisitorDay } from '../../shared/store/activity';
import { firstSeenFirst, type ActivityDays } from '../../shared/store/activity-days';
import type { MemoryDocuments } from './documents';

/** One day's visitor-days from memory, with the same answer as the Cosmos DB adapter. */
export function memoryActivityDays(documents: MemoryDocuments): ActivityDays {
  return {
    retention: 'kept in memory until the host restarts',
    visitorDaysOn: (day) =>
      Promise.resolve(documents.query<VisitorDay>((doc) => doc.pk === day && doc.kind === 'visitor-day').sort(firstSeenFirst)),
  };
}
