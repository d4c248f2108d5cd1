import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

/** The fold state's id in the `visitors` partition. */
export const FOLD_STATE_ID = 'fold-state';

/**
 * How far the fold has folded (pk `visitors`, id `fold-state`), written by it last in every run: for each
 * day's partition, the store's mark up to which its facts are folded; the mark up to which the visitor records are;
 * and when the older days were last swept. A run that dies before writing it starts again from these marks, and every
 * document it folds into says how far it holds, so nothing is added twice.
 */
export interface FoldState {
  id: typeof FOLD_STATE_ID;
  pk: typeof VISITORS_PK;
  kind: 'fold-state';
  days: Record<string, number>;
  records: number;
  /** When (the fold's clock) the run that last moved `records` ran; null before the first. */
  records_at: string | null;
  /** When the days past the near window were last swept (ISO 8601 UTC); null before the first sweep. */
  swept_at: string | null;
  /** Days whose visits are to be counted again: their activity changed, and the visits summary has not caught up. */
  visits_due: string[];
  /**
   * The first day whose rollup the fold made from its first visitor-day; a day before it may hold visitor-days kept
   * before rollups were, whose rollup the timer builds (`build`). '0000-00-00' when the fold began with rollups.
   */
  rollups_from: string;
  /** The next day, walking back, whose rollup the timer builds from its visitor-days; null once every day has one. */
  build: string | null;
  /**
   * The first day whose month rollup and filter cells the fold moves from its first visitor-day: a month before it is
   * read from its days, and filters count from it. '0000-00-00' when the fold began with them.
   */
  periods_from: string;
  /**
   * The first day whose year rollup and year cells the fold moves from its first visitor-day: a year before it is read
   * from its months. '0000-00-00' when the fold began with them.
   */
  years_from: string;
  /**
   * Why the count is behind, since when: set by a run that could not bring everything up to date (its budget ran out
   * with work left, or a part failed), cleared by the run that does. Null when the count is up to date.
   */
  behind: { since: string; reason: string } | null;
  /** The mark up to which the landed notes of imported messages are read (shared/core/store/imports.ts). */
  imports: number;
  /** Imported days whose facts are still to be folded, oldest first: read beside the near days until caught up. */
  imported: string[];
  /** Imported days older than those whose scanners are counted again, whose people and scanners are to be counted again. */
  people_due: string[];
  /** The goals folded so far (GOALS as the last run read it); absent before goals were. */
  goals_seen?: string[];
  /**
   * The goals added later whose people are still to be counted from the facts kept before: for each, every day's mark
   * when it was added (`up_to`) and how far the build has read (`at`).
   */
  goal_builds?: Record<string, { up_to: Record<string, number>; at: Record<string, number> }>;
}

/** A fold state before the first run. */
export const emptyFoldState = (): FoldState => ({
  id: FOLD_STATE_ID,
  pk: VISITORS_PK,
  kind: 'fold-state',
  days: {},
  records: 0,
  records_at: null,
  swept_at: null,
  visits_due: [],
  rollups_from: '0000-00-00',
  build: null,
  periods_from: '0000-00-00',
  years_from: '0000-00-00',
  behind: null,
  imports: 0,
  imported: [],
  people_due: [],
});

/** The fold state, read with its version and written conditionally. */
export type FoldStates = Conditional<FoldState, []>;

/** The store's own clock, as the fold needs it. */
export interface StoreMarks {
  /**
   * The latest mark the fold may read up to: every write with a mark at or before it has landed and is visible. On
   * Cosmos DB, the server's `_ts` now less the settle margin; in memory, the last write's.
   */
  settled(): Promise<number>;
}
