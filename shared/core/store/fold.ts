import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

export const FOLD_STATE_ID = 'fold-state';

/**
 * Written last in every run: the watermarks up to which each day's facts and the records are folded.
 * A run that dies starts again from them, and every document says how far it holds, so nothing is added twice.
 */
export interface FoldState {
  id: typeof FOLD_STATE_ID;
  pk: typeof VISITORS_PK;
  kind: 'fold-state';
  days: Record<string, number>;
  records: number;
  /** Null before the first run. */
  records_at: string | null;
  /** Days past the near window; null before the first sweep. */
  swept_at: string | null;
  /** Their activity changed and the visits summary has not caught up. */
  visits_due: string[];
  /** Days before it may hold visitor-days kept before rollups, which the timer builds; '0000-00-00' when none. */
  rollups_from: string;
  /** Walking back; null once every day has a rollup. */
  build: string | null;
  /** A month before it is read from its days, and filters count from it; '0000-00-00' when none. */
  periods_from: string;
  /** A year before it is read from its months; '0000-00-00' when none. */
  years_from: string;
  /** Set by a run that left work or had a part fail, cleared by one that did not; null when up to date. */
  behind: { since: string; reason: string } | null;
  /** Up to this watermark the landed notes of imports are read. */
  imports: number;
  /** Oldest first, read beside the near days until caught up. */
  imported: string[];
  /** Imported days older than those whose scanners are counted again, to be counted again. */
  people_due: string[];
  /** GOALS as the last run read it; absent before goals were. */
  goals_seen?: string[];
  /** Goals added later: each day's watermark when added (`up_to`) and how far the build has read (`at`). */
  goal_builds?: Record<string, { up_to: Record<string, number>; at: Record<string, number> }>;
}

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

export type FoldStates = Conditional<FoldState, []>;

export interface StoreMarks {
  /** Every write at or before it is visible: on Cosmos DB the server's `_ts` less the settle margin, in memory the last write's. */
  settled(): Promise<number>;
}
