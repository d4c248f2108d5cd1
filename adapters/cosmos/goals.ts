import { goalPk, goalSummaryId, type GoalsStore, type GoalSummary } from '../../shared/events/goal-documents';
import type { CosmosDocuments } from './documents';

/** The goals on Cosmos DB: a point read and If-Match replaces of each summary, creates that answer 409 for its people. */
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
          : documents.query<string>(
              "SELECT VALUE c.person FROM c WHERE c.pk = @pk AND c.kind = 'goal-person' AND ARRAY_CONTAINS(@persons, c.person)",
              [
                { name: '@pk', value: documents.key(goalPk(goal)) },
                { name: '@persons', value: [...persons] },
              ],
              goalPk(goal),
            ),
      create: (doc) => documents.create(doc),
    },
  };
}
