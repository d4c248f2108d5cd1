import { goalPk, goalSummaryId, type GoalPerson, type GoalsStore, type GoalSummary } from '../../shared/events/goal-documents';
import type { MemoryDocuments } from './documents';

/** The goals in memory, with the same answers as the Cosmos DB adapter. */
export function memoryGoals(documents: MemoryDocuments): GoalsStore {
  const resolved = <T>(value: T) => Promise.resolve(value);
  return {
    summaries: {
      read: (goal) => resolved(documents.read<GoalSummary>(goalPk(goal), goalSummaryId(goal))),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    people: {
      known: (goal, persons) =>
        resolved(
          documents
            .query<GoalPerson>((doc) => doc.kind === 'goal-person' && persons.includes(doc.person), goalPk(goal))
            .map((doc) => doc.person),
        ),
      create: (doc) => resolved(documents.create(doc)),
    },
  };
}
