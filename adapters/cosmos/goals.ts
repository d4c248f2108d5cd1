import {
  goalPersonId,
  goalPk,
  goalSummaryId,
  type GoalDay,
  type GoalPerson,
  type GoalsStore,
  type GoalSummary,
} from '../../shared/core/store/goals';
import type { CosmosDocuments } from './documents';

export function cosmosGoals(documents: CosmosDocuments): GoalsStore {
  return {
    summaries: {
      read: (goal) => documents.read<GoalSummary>(goalPk(goal), goalSummaryId(goal)),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    people: {
      known: async (goal, persons) =>
        persons.length === 0
          ? []
          : documents.query<Pick<GoalPerson, 'person' | 'first_at'>>(
              "SELECT c.person, c.first_at FROM c WHERE c.pk = @pk AND c.kind = 'goal-person' AND ARRAY_CONTAINS(@persons, c.person)",
              [
                { name: '@pk', value: documents.key(goalPk(goal)) },
                { name: '@persons', value: [...persons] },
              ],
              goalPk(goal),
            ),
      create: (doc) => documents.create(doc),
      read: (goal, person) => documents.read<GoalPerson>(goalPk(goal), goalPersonId(goal, person)),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    days: {
      known: async (goal, ids) =>
        ids.length === 0
          ? []
          : documents.query<string>(
              "SELECT VALUE c.id FROM c WHERE c.pk = @pk AND c.kind = 'goal-day' AND ARRAY_CONTAINS(@ids, c.id)",
              [
                { name: '@pk', value: goalPk(goal) },
                { name: '@ids', value: [...ids] },
              ],
              goalPk(goal),
            ),
      create: (doc) => documents.create(doc),
    },
    moves: {
      unmoved: (goal, limit) =>
        documents.query<GoalPerson | GoalDay>(
          `SELECT TOP ${Math.max(1, Math.floor(limit))} * FROM c WHERE c.kind IN ('goal-person', 'goal-day') AND NOT IS_DEFINED(c.derived)`,
          [],
          goalPk(goal),
        ),
      remove: (goal, id) => documents.remove(goalPk(goal), id),
    },
  };
}
