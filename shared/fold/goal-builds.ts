import { addDays } from '../core/days';
import type { Goal } from '../core/events/events';
import type { FoldingStore } from '../core/store';
import { FOLD_DAYS } from '../core/store/facts';
import type { FoldState } from '../core/store/fold';
import { foldGoals, type GoalPersons } from './goals';
import { sliceOf, type Slice } from './slice';
import type { FoldBudget } from './budget';
import type { Watermarked } from '../core/store/documents';
import type { Fact } from '../core/store/facts';
import type { StateWriter } from './state';

/**
 * A goal no run folded before gets a build of the facts still kept, so a goal added later counts its people from them too.
 * A state from before goals treats every goal as new.
 */
export function newGoalBuilds(state: FoldState, fresh: boolean, goals: readonly Goal[]): Partial<FoldState> | null {
  const names = goals.map((goal) => goal.name);
  const seen = state.goals_seen ?? [];
  const added = names.filter((name) => !seen.includes(name));
  if (added.length === 0 && state.goals_seen !== undefined) return null;
  const builds = { ...state.goal_builds };
  if (!fresh) for (const name of added) builds[name] = { up_to: { ...state.days }, at: {} };
  return { goals_seen: names, goal_builds: builds };
}

const underived = (fact: Fact) => (fact.actions ?? []).flatMap((action) => (action.derived === true ? [] : [action.person]));

/**
 * Once the switch of person ids has begun, each person of an action not marked derived is derived as it folds, so a
 * slice ends before the whole watermark that would take it past `limit` people to derive; its first watermark is always taken.
 */
function withinDerivations(slice: Slice<Watermarked<Fact>>, limit: number): Slice<Watermarked<Fact>> {
  const people = new Set<string>();
  for (const item of slice.items) {
    const fresh = new Set(underived(item.doc).filter((person) => !people.has(person)));
    if (item.watermark !== slice.items[0]!.watermark && people.size + fresh.size > limit) {
      // Items come in watermark order, so the slice keeps the whole watermarks before this one.
      const end = slice.items.findIndex((one) => one.watermark === item.watermark);
      return { items: slice.items.slice(0, end), upTo: item.watermark - 1, caughtUp: false };
    }
    for (const person of fresh) people.add(person);
  }
  return slice;
}

/** A person already counted is not counted again; days whose facts have expired are passed. */
export async function buildGoals(
  deps: { store: FoldingStore; goals: readonly Goal[]; budget: FoldBudget; today: string; persons?: GoalPersons | undefined },
  state: StateWriter,
  more: () => Promise<boolean>,
): Promise<void> {
  const oldest = addDays(deps.today, -FOLD_DAYS);
  for (const [name, build] of Object.entries(state.current().goal_builds ?? {})) {
    const goal = deps.goals.find((one) => one.name === name);
    const days = Object.entries(build.up_to).filter(([day, upTo]) => goal !== undefined && day >= oldest && (build.at[day] ?? 0) < upTo);
    for (const [day, upTo] of days) {
      while ((state.current().goal_builds?.[name]?.at[day] ?? 0) < upTo) {
        if (!(await more())) return;
        const after = state.current().goal_builds?.[name]?.at[day] ?? 0;
        const read = await sliceOf(
          (limit) => deps.store.facts.firstOn(day, after, upTo, limit),
          (high) => deps.store.facts.on(day, after, high),
          deps.budget.factsASlice,
          upTo,
        );
        const slice =
          deps.persons !== undefined && (await deps.persons.begun()) ? withinDerivations(read, deps.budget.derivationsASlice) : read;
        await foldGoals(
          deps.store.goals,
          [goal!],
          slice.items.flatMap(({ doc }) => doc.actions ?? []),
          deps.persons,
        );
        const builds = { ...state.current().goal_builds };
        builds[name] = { ...builds[name]!, at: { ...builds[name]!.at, [day]: slice.upTo } };
        await state.write({ goal_builds: builds });
      }
    }
    const rest = { ...state.current().goal_builds };
    delete rest[name];
    await state.write({ goal_builds: rest });
  }
}
