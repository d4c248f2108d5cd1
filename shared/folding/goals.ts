import { inLanes } from '../lanes';
import { reaches, type Goal } from '../events/events';
import { goalPersonId, goalPk, goalSummaryId, type GoalSummary, type GoalsStore } from '../events/goal-documents';
import type { GoalAction } from '../store/facts';
import { conditionalWriteOnce } from '../store/conditional-write';

/** How many of a goal's new people's documents are created at once. */
const CREATES_AT_ONCE = 16;

/** A goal's summary before its first person. */
const emptySummary = (goal: string): GoalSummary => ({
  id: goalSummaryId(goal),
  pk: goalPk(goal),
  kind: 'goal-summary',
  goal,
  people_all_time: 0,
  first_day: null,
  pending: [],
});

/** Creates the documents of the people a summary counted and names as pending, then clears them from it. */
async function settlePending(store: GoalsStore, summary: GoalSummary, etag: string): Promise<void> {
  if (summary.pending.length === 0) return;
  await inLanes(summary.pending, CREATES_AT_ONCE, ({ person, at }) =>
    store.people.create({
      id: goalPersonId(summary.goal, person),
      pk: goalPk(summary.goal),
      kind: 'goal-person',
      goal: summary.goal,
      person,
      first_at: at,
    }),
  );
  await conditionalWriteOnce(
    store.summaries,
    { before: summary, etag, after: { ...summary, pending: [] } },
    `goal summary ${summary.goal}`,
  );
}

/**
 * Folds some people's actions into one goal: each person who reached it and is not yet one of its people (no document,
 * not pending) is counted, once. The count and the new people, as pending, are written first in one conditional write;
 * then each new person's document is created (a create that finds it there is one already made); then the pending list
 * is cleared. A run that dies anywhere between leaves a summary whose pending people are made and cleared by the next
 * fold of the goal before it counts anyone, so nobody is counted twice, whatever order the actions come in: the live
 * fold's, or the build of a goal added later from the facts still kept.
 */
async function foldGoal(store: GoalsStore, goal: Goal, actions: readonly GoalAction[]): Promise<void> {
  const first = new Map<string, string>();
  for (const action of actions)
    if (reaches(goal, action) && (first.get(action.person) ?? '\uffff') > action.at) first.set(action.person, action.at);
  if (first.size === 0) return;
  let read = await store.summaries.read(goal.name);
  if (read !== null && read.doc.pending.length > 0) {
    await settlePending(store, read.doc, read.etag);
    read = await store.summaries.read(goal.name);
  }
  const summary = read?.doc ?? emptySummary(goal.name);
  const known = new Set(await store.people.known(goal.name, [...first.keys()]));
  const fresh = [...first].filter(([person]) => !known.has(person)).map(([person, at]) => ({ person, at }));
  if (fresh.length === 0) return;
  const firstDay = fresh.map(({ at }) => at.slice(0, 10)).sort()[0]!;
  const after: GoalSummary = {
    ...summary,
    people_all_time: summary.people_all_time + fresh.length,
    first_day: summary.first_day === null || firstDay < summary.first_day ? firstDay : summary.first_day,
    pending: fresh,
  };
  await conditionalWriteOnce(store.summaries, { before: read?.doc ?? null, etag: read?.etag ?? null, after }, `goal summary ${goal.name}`);
  const written = await store.summaries.read(goal.name);
  if (written !== null) await settlePending(store, written.doc, written.etag);
}

/** Folds people's actions into every goal: each goal's people all time, each person once. */
export async function foldGoals(store: GoalsStore, goals: readonly Goal[], actions: readonly GoalAction[]): Promise<void> {
  if (actions.length === 0) return;
  for (const goal of goals) await foldGoal(store, goal, actions);
}
