import { randomUUID } from 'node:crypto';
import { funnelStepsSetting, type Funnel, type FunnelStep } from '../core/funnel';
import type { Goal } from '../core/events/events';
import { addDays, daysEnding } from '../core/days';
import { errorLine } from '../core/errors';
import { utcDay } from '../core/identity/tokens';
import { boundedMap } from '../core/bounded-map';
import type { Clock } from '../core/ports/clock';
import type { FoldingStore } from '../core/store';
import { FACT_TTL_SECONDS, FOLD_DAYS } from '../core/store/facts';
import { emptyFoldState, type FoldState } from '../core/store/fold';
import { releaseFoldLease, renewFoldLease, takeFoldLease, type HeldFoldLease } from '../core/store/fold-lease';
import type { ScanRules } from '../core/subjects/scan-rule';
import { buildRollups } from './building';
import { TIMER_FOLD_BUDGET, type FoldBudget } from './budget';
import { DAYS_AT_ONCE, finishDays, foldDay, type DayOutcome } from './day';
import { foldPeople } from './people';
import { IMPORTED_AT_ONCE, importedToRead, openImported } from './imports';
import { foldSubjects } from './subjects';
import { foldGoals, type GoalPersons } from './goals';
import { foldCohorts } from './cohorts';
import { cohortRegisters, mergedCohortRegisters } from '../core/rollup/cohorts';
import { buildGoals, newGoalBuilds } from './goal-builds';
import { foldVisits } from './visits';
import { stateWriter, upgraded, type StateWriter } from './state';
import { tried, TRIES } from './tries';
import { FoldRaced } from '../core/store/conditional-write';
import { runMigrations, type Migration } from './migrations/runner';
import { writeDayFiles } from './day-files';

// Late messages can leave facts on days past the near window.
const SWEEP_EVERY_MS = 3_600_000;

export interface FoldDeps {
  store: FoldingStore;
  clock: Clock;
  rules: ScanRules;
  /** HIT_MAX_AGE_DAYS. */
  lateDays: number;
  /** FUNNEL_STEPS; the default steps when not given. */
  steps?: readonly FunnelStep[];
  /** The configuration's goals; none when not given. */
  goals?: readonly Goal[];
  /** The configuration's funnels; none when not given. */
  funnels?: readonly Funnel[];
  /** TIMER_FOLD_BUDGET when not given. */
  budget?: FoldBudget;
  /** The lease's holder; a new id when not given. */
  holder?: string;
  /** Run in order, a slice at a time, after the counts; none when not given. */
  migrations?: readonly Migration[];
  /** Set once the dated switch of person ids is registered: goals find a person under either id while it is under way. */
  persons?: GoalPersons;
}

type FullFoldDeps = Required<Omit<FoldDeps, 'persons'>> & Pick<FoldDeps, 'persons'>;

const filled = (deps: FoldDeps): FullFoldDeps => ({
  ...deps,
  steps: deps.steps ?? funnelStepsSetting.parse(undefined),
  goals: deps.goals ?? [],
  funnels: deps.funnels ?? [],
  budget: deps.budget ?? TIMER_FOLD_BUDGET,
  holder: deps.holder ?? `fold-${randomUUID()}`,
  migrations: deps.migrations ?? [],
});

/** `behind` says what is left for the next run; not `ok` folded nothing, and `busy` means another fold holds the lease. */
export type FoldOutcome =
  | { ok: true; bound: number; facts: number; dropped: number; days: string[]; records: number; behind: string | null }
  | { ok: false; reason: string; busy: boolean };

/**
 * Tomorrow, since a hit may be five minutes ahead, back through every day a hit may still arrive for.
 * Once an hour back to FOLD_DAYS, where only a message replayed from poison can leave a fact.
 */
function daysToRead(today: string, lateDays: number, sweep: boolean): string[] {
  const reach = sweep ? FOLD_DAYS : Math.min(lateDays + 1, FOLD_DAYS);
  return daysEnding(addDays(today, 1), reach + 2);
}

const sweepDue = (state: FoldState, now: Date) => state.swept_at === null || now.getTime() - Date.parse(state.swept_at) >= SWEEP_EVERY_MS;

/** Marks never move back; a day out of reach is dropped once its facts have expired, unless it is an imported day still to fold. */
function marked(
  days: Record<string, number>,
  moves: ReadonlyMap<string, number>,
  today: string,
  kept: { imported: readonly string[]; bound: number },
): Record<string, number> {
  const oldest = addDays(today, -FOLD_DAYS - 1);
  const open = new Set(kept.imported);
  const watermarks = { ...days };
  for (const [day, watermark] of moves) watermarks[day] = Math.max(watermarks[day] ?? 0, watermark);
  return Object.fromEntries(
    Object.entries(watermarks)
      .filter(([day, watermark]) => day >= oldest || open.has(day) || watermark > kept.bound - FACT_TTL_SECONDS)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

interface Run {
  deps: FullFoldDeps;
  started: Date;
  today: string;
  bound: number;
  slices: number;
  lease: HeldFoldLease | null;
  state: StateWriter;
  facts: number;
  /** Engagements with no visitor-day to join. */
  dropped: number;
  records: number;
  days: Set<string>;
  failures: string[];
  /** Failures of each day, and of each round's subjects and goals. */
  tries: Map<string, number>;
}

/** Answers whether the run may take `what` up again, up to TRIES. */
function triesAgain(run: Run, what: string): boolean {
  const tries = (run.tries.get(what) ?? 0) + 1;
  run.tries.set(what, tries);
  const { budget, clock } = run.deps;
  return tries < TRIES && run.lease !== null && clock.now().getTime() - run.started.getTime() < budget.runMs;
}

/** Renews the lease once half of it is spent; a run that loses it stops at once, since another fold has it. */
async function nextSlice(run: Run): Promise<boolean> {
  const { budget, clock } = run.deps;
  const now = clock.now();
  if (run.slices >= budget.slicesARun || now.getTime() - run.started.getTime() >= budget.runMs || run.lease === null) return false;
  if (Date.parse(run.lease.until) - now.getTime() < (budget.leaseSeconds * 1000) / 2) {
    const renewed = await renewFoldLease(run.deps.store.foldLease, run.lease, now, budget.leaseSeconds);
    run.lease = renewed.held ? renewed.lease : null;
  }
  if (run.lease === null) return false;
  run.slices += 1;
  return true;
}

/** A day that fails is left at its watermark and out of the rest of the run; the others go on. */
async function activityRound(run: Run, open: readonly string[]): Promise<string[]> {
  const { store, budget } = run.deps;
  const rules = { steps: run.deps.steps, goals: run.deps.goals, funnels: run.deps.funnels };
  const state = run.state.current();
  const sliced: DayOutcome[] = [];
  await boundedMap(open, DAYS_AT_ONCE, async (day) => {
    const buildsFromKept = day < state.rollups_from && state.build !== null && day <= state.build;
    const periods = !buildsFromKept && day >= state.periods_from;
    sliced.push(
      await foldDay(store, { day, watermark: state.days[day] ?? 0, bound: run.bound, buildsFromKept, periods }, rules, budget.factsASlice),
    );
  });
  const outcomes = await finishDays(store, sliced);
  const folded = outcomes.filter((outcome) => outcome.ok);
  // A failed day stays open while it may be tried again, then waits for the next run.
  const again: string[] = [];
  for (const failed of outcomes.filter((outcome) => !outcome.ok)) {
    if (triesAgain(run, failed.day)) again.push(failed.day);
    else run.failures.push(`${failed.day}: ${failed.reason}`);
  }
  const bounds = {
    days: new Map(folded.map((outcome) => [outcome.day, outcome.upTo] as const)),
    oldest: addDays(run.today, -FOLD_DAYS - 1),
  };
  const scans = folded.flatMap((outcome) => outcome.scans);
  const actions = folded.flatMap((outcome) => outcome.actions);
  try {
    if (scans.length > 0) await foldSubjects(store.subjects, scans, run.deps.rules, bounds, run.deps.persons);
    await foldGoals(store.goals, run.deps.goals, actions, run.deps.persons);
    await foldCohorts(store.cohorts, cohortRegisters(actions, mergedCohortRegisters(folded.map((outcome) => outcome.cohorts))));
  } catch (error) {
    // The days stay at their watermarks, and every document holds how far it got.
    if (triesAgain(run, 'subjects, goals and cohorts')) return [...open];
    run.failures.push(`subjects, goals and cohorts: ${errorLine(error)}`);
    return [];
  }
  const changed = folded.filter((outcome) => outcome.facts > 0);
  for (const outcome of changed) {
    run.facts += outcome.facts;
    run.dropped += outcome.dropped;
    run.days.add(outcome.day);
  }
  // An imported day caught up to the bound holds every fact its notes named.
  const caughtUp = new Set(folded.filter((outcome) => outcome.caughtUp).map((outcome) => outcome.day));
  const imported = state.imported.filter((day) => !caughtUp.has(day));
  await run.state.write({
    days: marked(state.days, new Map(folded.map((outcome) => [outcome.day, outcome.upTo] as const)), run.today, {
      imported,
      bound: run.bound,
    }),
    visits_due: [...new Set([...state.visits_due, ...changed.map((outcome) => outcome.day)])].sort(),
    ...(store.dayFiles === null || changed.length === 0
      ? {}
      : { files_due: [...new Set([...(state.files_due ?? []), ...changed.map((outcome) => outcome.day)])].sort() }),
    imported,
  });
  return [...folded.filter((outcome) => !outcome.caughtUp).map((outcome) => outcome.day), ...again];
}

/** A failed part is tried again from its own watermarks, then noted, and the others still make progress. */
async function part(run: Run, name: string, work: () => Promise<void>): Promise<void> {
  try {
    // A lost race is not tried again: another fold holds the state.
    await tried(work, (error) => !(error instanceof FoldRaced) && triesAgain(run, name));
  } catch (error) {
    run.failures.push(`${name}: ${errorLine(error)}`);
  }
}

/** The near days and up to IMPORTED_AT_ONCE imported days beside them, oldest first, each taken up once a run. */
async function foldActivity(run: Run, days: readonly string[]): Promise<{ all: boolean; near: boolean }> {
  const near = new Set(days);
  const taken = new Set(days);
  const withImported = (open: readonly string[]) => {
    const room = IMPORTED_AT_ONCE - open.filter((day) => !near.has(day)).length;
    const more = importedToRead(run.state.current().imported, taken, room);
    for (const day of more) taken.add(day);
    return [...open, ...more];
  };
  let open = withImported(days);
  while (open.length > 0 && (await nextSlice(run))) open = withImported(await activityRound(run, open));
  return { all: open.length === 0, near: !open.some((day) => near.has(day)) };
}

async function people(run: Run): Promise<boolean> {
  const state = run.state.current();
  const outcome = await foldPeople(
    run.deps.store,
    { watermark: state.records, at: state.records_at },
    {
      bound: run.bound,
      today: run.today,
      now: run.started,
      limit: run.deps.budget.recordsASlice,
      more: () => nextSlice(run),
      imported: state.people_due,
    },
  );
  run.records += outcome.records;
  const moved = outcome.records > 0 ? { records: outcome.watermark, records_at: outcome.at } : {};
  if (outcome.records > 0 || state.people_due.length > 0) await run.state.write({ ...moved, people_due: [] });
  return outcome.caughtUp;
}

/**
 * The only writer of everything counted over many visitors, one run at a time under the fold lease.
 * Each part moves its own watermarks slice by slice, so a failed part holds back only itself and a run that dies adds nothing twice.
 * Never throws.
 */
export async function fold(given: FoldDeps): Promise<FoldOutcome> {
  const deps = filled(given);
  const started = deps.clock.now();
  const taken = await takeFoldLease(deps.store.foldLease, deps.holder, started, deps.budget.leaseSeconds);
  if (!taken.held) return { ok: false, reason: taken.reason, busy: taken.busy };
  const run: Partial<Run> & { lease: HeldFoldLease | null } = { lease: taken.lease };
  try {
    return await foldHeld(deps, started, run);
  } catch (error) {
    return { ok: false, reason: errorLine(error), busy: false };
  } finally {
    if (run.lease !== null) await releaseFoldLease(deps.store.foldLease, run.lease, deps.clock.now());
  }
}

async function foldHeld(deps: FullFoldDeps, started: Date, partial: Partial<Run> & { lease: HeldFoldLease | null }): Promise<FoldOutcome> {
  const { store } = deps;
  const bound = await tried(() => store.watermarks.settled());
  const today = utcDay(started);
  const read = await tried(() => store.foldState.read());
  // Until the first run ends, an empty summary is a count not made, not a true zero.
  const first = { since: started.toISOString(), reason: 'the first run has not finished' };
  const begun = read === null ? { ...emptyFoldState(), behind: first } : upgraded(read.doc, today);
  const run: Run = Object.assign(partial, {
    deps,
    started,
    today,
    bound,
    slices: 0,
    state: stateWriter(store.foldState, read, begun),
    facts: 0,
    dropped: 0,
    records: 0,
    days: new Set<string>(),
    failures: [],
    tries: new Map<string, number>(),
  });
  // The first run says at once that the count is not made yet.
  if (read === null) await run.state.write({});
  const builds = newGoalBuilds(begun, read === null, deps.goals);
  if (builds !== null) await run.state.write(builds);
  const sweep = sweepDue(begun, started);
  let importsDone = false;
  await part(run, 'imports', async () => {
    importsDone = await openImported(store.landed, run.state, { bound, today, more: () => nextSlice(run) });
  });
  const activity = await foldActivity(run, daysToRead(today, deps.lateDays, sweep));
  const activityDone = activity.all;
  await part(run, 'visits', async () => {
    const due = run.state.current().visits_due;
    await foldVisits(store, due);
    if (due.length > 0) await run.state.write({ visits_due: [] });
  });
  let peopleDone = false;
  await part(run, 'people', async () => {
    peopleDone = await people(run);
  });
  await part(run, 'goals', () =>
    buildGoals({ store, goals: deps.goals, budget: deps.budget, today, persons: deps.persons }, run.state, () => nextSlice(run)),
  );
  await part(run, 'rollups', () =>
    buildRollups({ ...run.deps, rules: { steps: run.deps.steps, goals: run.deps.goals, funnels: run.deps.funnels } }, run.state, () =>
      nextSlice(run),
    ),
  );
  await part(run, 'day files', () =>
    writeDayFiles(store, run.state, today, { steps: deps.steps, goals: deps.goals, funnels: deps.funnels }, () => nextSlice(run)),
  );
  await part(run, 'migrations', async () => {
    await runMigrations(store.migrations, deps.migrations, {
      now: started,
      limit: deps.budget.recordsASlice,
      more: () => nextSlice(run),
      bound,
    });
  });
  const behind = behindReason(run, activityDone && importsDone, peopleDone);
  const state = run.state.current();
  await run.state.write({
    swept_at: sweep && activity.near ? started.toISOString() : state.swept_at,
    behind: behind === null ? null : { since: state.behind?.since ?? started.toISOString(), reason: behind },
  });
  return { ok: true, bound, facts: run.facts, dropped: run.dropped, days: [...run.days].sort(), records: run.records, behind };
}

/** One sentence; null when the count is up to date. */
function behindReason(run: Run, activityDone: boolean, peopleDone: boolean): string | null {
  if (run.failures.length > 0) return `the store did not answer every call (${run.failures.slice(0, 3).join('; ')})`;
  if (!activityDone || !peopleDone) return 'the fold has more to fold than one run takes; the next runs go on';
  if (run.state.current().visits_due.length > 0) return 'the visits of some days are still to be counted';
  return null;
}
