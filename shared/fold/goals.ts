import { boundedMap } from '../core/bounded-map';
import { reaches, type Goal } from '../core/events/events';
import { goalDayId, goalPersonId, goalPk, goalSummaryId, type GoalSummary, type GoalsStore } from '../core/store/goals';
import { addBuckets, addTouches, bucketOf } from '../core/events/first-touch';
import type { GoalAction } from '../core/store/facts';
import { conditionalWriteOnce } from '../core/store/conditional-write';

const CREATES_AT_ONCE = 16;

const emptySummary = (goal: string): GoalSummary => ({
  id: goalSummaryId(goal),
  pk: goalPk(goal),
  kind: 'goal-summary',
  goal,
  people_all_time: 0,
  first_day: null,
  pending: [],
});

const marked = (derived: true | undefined) => (derived ? { derived } : {});

/** Unless it holds an earlier or equal one already. */
async function movedEarlier(store: GoalsStore, goal: string, person: string, at: string): Promise<void> {
  const read = await store.people.read(goal, person);
  if (read === null || read.doc.first_at <= at) return;
  await conditionalWriteOnce(
    store.people,
    { before: read.doc, etag: read.etag, after: { ...read.doc, first_at: at } },
    `goal person ${goal}`,
  );
}

/** Creates the documents a summary names as pending, then clears them. */
export async function settlePending(store: GoalsStore, summary: GoalSummary, etag: string): Promise<void> {
  if (summary.pending.length === 0) return;
  const { goal } = summary;
  await boundedMap(summary.pending, CREATES_AT_ONCE, async ({ person, at, day, moved, derived }) => {
    const watermark = marked(derived);
    if (day !== undefined)
      return store.days.create({ id: goalDayId(goal, person, day), pk: goalPk(goal), kind: 'goal-day', goal, person, day, ...watermark });
    if (moved) return movedEarlier(store, goal, person, at);
    const doc = { id: goalPersonId(goal, person), pk: goalPk(goal), kind: 'goal-person' as const, goal, person, first_at: at };
    return store.people.create({ ...doc, ...watermark });
  });
  await conditionalWriteOnce(
    store.summaries,
    { before: summary, etag, after: { ...summary, pending: [] } },
    `goal summary ${summary.goal}`,
  );
}

function earliest(actions: readonly GoalAction[], key: (action: GoalAction) => string): Map<string, GoalAction> {
  const first = new Map<string, GoalAction>();
  for (const action of actions) if ((first.get(key(action))?.at ?? '\uffff') > action.at) first.set(key(action), action);
  return first;
}

/**
 * Counts and pending people go in one conditional write, then their documents are created, then pending is cleared.
 * A run that dies between leaves pending ones that the goal's next fold settles before it counts anyone, so nothing counts twice.
 */
/** A person's ids: the derived one, and while the switch is under way the HMAC value goal documents may still hold. */
const idsOf = (action: GoalAction) => (action.was === undefined ? [action.person] : [action.person, action.was]);

async function foldGoal(store: GoalsStore, goal: Goal, actions: readonly GoalAction[]): Promise<void> {
  const reached = actions.filter((action) => reaches(goal, action));
  if (reached.length === 0) return;
  const people = earliest(reached, (action) => action.person);
  const dayIds = (action: GoalAction) => idsOf(action).map((id) => goalDayId(goal.name, id, action.at.slice(0, 10)));
  const days = earliest(reached, (action) => dayIds(action)[0]!);
  let read = await store.summaries.read(goal.name);
  if (read !== null && read.doc.pending.length > 0) {
    await settlePending(store, read.doc, read.etag);
    read = await store.summaries.read(goal.name);
  }
  const summary = read?.doc ?? emptySummary(goal.name);
  const [known, knownDays] = await Promise.all([
    store.people
      .known(goal.name, [...people.values()].flatMap(idsOf))
      .then((found) => new Map(found.map(({ person, first_at }) => [person, first_at]))),
    store.days.known(goal.name, [...days.values()].flatMap(dayIds)).then((found) => new Set(found)),
  ]);
  const knownAs = (action: GoalAction) => idsOf(action).find((id) => known.has(id));
  const firstAt = (action: GoalAction) => known.get(knownAs(action)!)!;
  const fresh = [...people.values()].filter((action) => knownAs(action) === undefined);
  // Days fold side by side, so a person's earlier conversion may come after a later one.
  const earlier = [...people.values()].filter((action) => knownAs(action) !== undefined && action.at < firstAt(action));
  const freshDays = [...days.values()].filter((action) => !dayIds(action).some((id) => knownDays.has(id)));
  if (fresh.length === 0 && freshDays.length === 0 && earlier.length === 0) return;
  const buckets = addBuckets(summary.days_to_convert, [...fresh, ...earlier]);
  for (const moved of earlier) buckets[bucketOf({ first: moved.first, at: firstAt(moved) })] -= 1;
  const firstDay = [...fresh, ...earlier].map(({ at }) => at.slice(0, 10)).sort()[0];
  const after: GoalSummary = {
    ...summary,
    people_all_time: summary.people_all_time + fresh.length,
    first_day: firstDay === undefined || (summary.first_day !== null && summary.first_day <= firstDay) ? summary.first_day : firstDay,
    first_touch: addTouches(summary.first_touch, fresh),
    conversions_by_touch: addTouches(summary.conversions_by_touch, freshDays),
    days_to_convert: buckets,
    pending: [
      ...fresh.map(({ person, at, derived }) => ({ person, at, ...marked(derived) })),
      ...earlier.map((action) => ({ person: knownAs(action)!, at: action.at, moved: true as const })),
      ...freshDays.map(({ person, at, derived }) => ({ person, at, day: at.slice(0, 10), ...marked(derived) })),
    ],
  };
  await conditionalWriteOnce(store.summaries, { before: read?.doc ?? null, etag: read?.etag ?? null, after }, `goal summary ${goal.name}`);
  const written = await store.summaries.read(goal.name);
  if (written !== null) await settlePending(store, written.doc, written.etag);
}

/** What the fold needs of the dated switch of person ids (docs/design.md, Identity). */
export interface GoalPersons {
  /** Whether the person-ids migration has begun; once true it stays true. */
  begun(): Promise<boolean>;
  derive(old: string): Promise<string>;
}

/** Once the switch has begun, an action of an HMAC value (kept before the begin) is named by its derived id too. */
async function switched(persons: GoalPersons | undefined, actions: readonly GoalAction[]): Promise<readonly GoalAction[]> {
  if (persons === undefined || !(await persons.begun())) return actions;
  const olds = [...new Set(actions.filter((action) => action.derived !== true).map((action) => action.person))];
  const ids = new Map(await Promise.all(olds.map(async (old) => [old, await persons.derive(old)] as const)));
  return actions.map((action) =>
    action.derived === true ? action : { ...action, person: ids.get(action.person)!, derived: true, was: action.person },
  );
}

export async function foldGoals(
  store: GoalsStore,
  goals: readonly Goal[],
  actions: readonly GoalAction[],
  persons?: GoalPersons,
): Promise<void> {
  if (actions.length === 0) return;
  const named = await switched(persons, actions);
  for (const goal of goals) await foldGoal(store, goal, named);
}
