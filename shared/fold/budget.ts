/** Bounds one run so its memory stays flat and it ends well inside the timer's minute; the next run goes on. */
export interface FoldBudget {
  /** Plus the rest of the second it ends in. */
  factsASlice: number;
  recordsASlice: number;
  /** Person ids a goal build's slice may derive once the switch has begun: about 9 ms of a pool thread each at the production cost. */
  derivationsASlice: number;
  buildPage: number;
  /** By the fold's clock. */
  runMs: number;
  /** Whatever the clock says. */
  slicesARun: number;
  /** Renewed between slices. */
  leaseSeconds: number;
}

/** A run of about 40 s at most in a 60 s lease, 500 facts a slice. */
export const TIMER_FOLD_BUDGET: FoldBudget = {
  factsASlice: 500,
  recordsASlice: 2_000,
  derivationsASlice: 500,
  buildPage: 500,
  runMs: 40_000,
  slicesARun: 10_000,
  leaseSeconds: 60,
};
