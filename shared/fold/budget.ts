/**
 * How much one run of the fold may take on, so that its memory stays flat and it ends well inside the timer's minute
 * whatever the backlog: the next run goes on from the marks this one wrote.
 */
export interface FoldBudget {
  /** Facts one slice of a day reads at most (plus the rest of the second it ends in). */
  factsASlice: number;
  /** Visitor records one slice of the people's fold reads at most. */
  recordsASlice: number;
  /** Visitor-days one page of a rollup's build reads. */
  buildPage: number;
  /** How long a run starts new slices, by the fold's clock. */
  runMs: number;
  /** How many slices a run starts at most, whatever the clock says. */
  slicesARun: number;
  /** The fold lease's length; renewed between slices. */
  leaseSeconds: number;
}

/** The budget the fold's timer runs on: a run of at most about 40 s in a 60 s lease, a slice of 500 facts. */
export const TIMER_FOLD_BUDGET: FoldBudget = {
  factsASlice: 500,
  recordsASlice: 2_000,
  buildPage: 500,
  runMs: 40_000,
  slicesARun: 10_000,
  leaseSeconds: 60,
};
