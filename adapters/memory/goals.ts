import {
  goalPersonId,
  goalPk,
  goalSummaryId,
  type GoalDay,
  type GoalPerson,
  type GoalsStore,
  type GoalSummary,
} from '../../shared/core/store/goals';
import type { MemoryDocuments } from './documents';

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
            .map(({ person, first_at }) => ({ person, first_at })),
        ),
      create: (doc) => resolved(documents.create(doc)),
      read: (goal, person) => resolved(documents.read<GoalPerson>(goalPk(goal), goalPersonId(goal, person))),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    days: {
      known: (goal, ids) =>
        resolved(documents.query<GoalDay>((doc) => doc.kind === 'goal-day' && ids.includes(doc.id), goalPk(goal)).map((doc) => doc.id)),
      create: (doc) => resolved(documents.create(doc)),
    },
    moves: {
      unmoved: (goal, limit) =>
        resolved(
          documents
            .query<GoalPerson | GoalDay>(
              (doc) => (doc.kind === 'goal-person' || doc.kind === 'goal-day') && doc.derived !== true,
              goalPk(goal),
            )
            .slice(0, limit),
        ),
      remove: (goal, id) => resolved(documents.delete(goalPk(goal), id)),
    },
  };
}
