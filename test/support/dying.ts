import type { GoalsStore } from '../../shared/core/store/goals';
import type { SubjectsStore } from '../../shared/core/store/subjects';

/** Wraps writes so the process "dies" right after write number `dieAfter`: that write lands, nothing after it runs. */
function dyingAfter(dieAfter: number) {
  let writes = 0;
  return <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const result = await write(...args);
      writes += 1;
      if (writes === dieAfter) throw new Error(`died after write ${writes}`);
      return result;
    };
}

/** The goals' ports, every write and removal counted. */
export function dyingGoals(goals: GoalsStore, dieAfter: number): GoalsStore {
  const landed = dyingAfter(dieAfter);
  return {
    summaries: { ...goals.summaries, create: landed(goals.summaries.create), replace: landed(goals.summaries.replace) },
    people: { ...goals.people, create: landed(goals.people.create), replace: landed(goals.people.replace) },
    days: { ...goals.days, create: landed(goals.days.create) },
    moves: { ...goals.moves, remove: landed(goals.moves.remove) },
  };
}

/** The subjects' ports the person-ids migration writes, every write and removal counted. */
export function dyingSubjects(subjects: SubjectsStore, dieAfter: number): SubjectsStore {
  const landed = dyingAfter(dieAfter);
  return {
    ...subjects,
    visitors: { ...subjects.visitors, create: landed(subjects.visitors.create) },
    moves: { ...subjects.moves, remove: landed(subjects.moves.remove) },
    cookies: { ...subjects.cookies, replace: landed(subjects.cookies.replace) },
  };
}
