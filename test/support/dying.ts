import { fixedClock } from '../../shared/core/ports/clock';
import type { Store } from '../../shared/core/store';
import type { DaySecrets } from '../../shared/core/store/day-secrets';
import { firstKeptDay } from '../../shared/core/store/first-day';
import type { Migrations } from '../../shared/core/store/migrations';
import type { OldDays } from '../../shared/core/store/old-days';
import { oldDaysMigration } from '../../shared/fold/migrations/old-days';
import { testSecret } from './day-secrets';
import type { GoalsStore } from '../../shared/core/store/goals';
import type { SubjectsStore } from '../../shared/core/store/subjects';

/** Wraps writes so the process "dies" right after write number `dieAfter`: that write lands, nothing after it runs. */
function dyingAfter(dieAfter: number) {
  let writes = 0;
  const landed =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const result = await write(...args);
      writes += 1;
      if (writes === dieAfter) throw new Error(`died after write ${writes}`);
      return result;
    };
  return { landed, writes: () => writes };
}

/** The goals' ports, every write and removal counted. */
export function dyingGoals(goals: GoalsStore, dieAfter: number): GoalsStore {
  const { landed } = dyingAfter(dieAfter);
  return {
    summaries: { ...goals.summaries, create: landed(goals.summaries.create), replace: landed(goals.summaries.replace) },
    people: { ...goals.people, create: landed(goals.people.create), replace: landed(goals.people.replace) },
    days: { ...goals.days, create: landed(goals.days.create) },
    moves: { ...goals.moves, remove: landed(goals.moves.remove) },
  };
}

/** The subjects' ports the person-ids migration writes, every write and removal counted. */
export function dyingSubjects(subjects: SubjectsStore, dieAfter: number): SubjectsStore {
  const { landed } = dyingAfter(dieAfter);
  return {
    ...subjects,
    visitors: { ...subjects.visitors, create: landed(subjects.visitors.create) },
    moves: { ...subjects.moves, remove: landed(subjects.moves.remove) },
    cookies: { ...subjects.cookies, replace: landed(subjects.cookies.replace) },
  };
}

/** The old days' migration on `store` at `at`, every write it makes counted, dying after write `dieAfter`. */
export function dyingOldDays(store: Store, at: string, dieAfter = Number.POSITIVE_INFINITY) {
  const { landed, writes } = dyingAfter(dieAfter);
  const days: OldDays = {
    ...store.oldDays,
    create: landed(store.oldDays.create),
    remove: landed(store.oldDays.remove),
    removeFact: landed(store.oldDays.removeFact),
  };
  const secrets: DaySecrets = { ...store.secrets, create: landed(store.secrets.create), remove: landed(store.secrets.remove) };
  const progress: Migrations = { ...store.migrations, create: landed(store.migrations.create), replace: landed(store.migrations.replace) };
  const migration = oldDaysMigration({
    days,
    secrets,
    foldState: store.foldState,
    firstDay: () => firstKeptDay(store),
    clock: fixedClock(at),
    newSecret: testSecret,
  });
  return { progress, migration, writes };
}

/** The day and period rollups' writes, counted: the process dies right after write number `dieAfter`. */
export function dyingRollups<S extends Pick<Store, 'rollups' | 'periods'>>(store: S, dieAfter: number): S {
  const { landed } = dyingAfter(dieAfter);
  return {
    ...store,
    rollups: { ...store.rollups, create: landed(store.rollups.create), replace: landed(store.rollups.replace) },
    periods: { ...store.periods, create: landed(store.periods.create), replace: landed(store.periods.replace) },
  };
}
