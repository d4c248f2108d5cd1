import type { Filter } from '../rollup/filters';
import type { TokenRow } from '../rollup/day-columns';
import type { Sketch } from '../sketch';
import type { RollupCounts } from './rollups';

/** Three sketches: the people, those new that day, those returning. */
export interface Sketches<T> {
  people: T;
  fresh: T;
  back: T;
}

/** What a question's matching rows add up to, day by day: a person's counts (uncapped) and the sketches of any kind's. */
export interface DaysTally {
  /** A day with no matching person is absent. */
  counts: Map<string, RollupCounts & { partial: boolean }>;
  /** A day with no matching visitor-day is absent. */
  sketches: Map<string, Sketches<Sketch>>;
  /** What the files' columns asked weigh in Blob Storage. */
  bytes: number;
}

/** A closed day's visitor-days kept once more, as one columnar file a day in Blob Storage. */
export interface DayFiles {
  /** The days asked that have a file. */
  written(days: readonly string[]): Promise<Set<string>>;
  /** The day's file, made of its rows a page at a time and replaced whole. */
  write(day: string, pages: AsyncIterable<readonly TokenRow[]>): Promise<void>;
  /** Reads only the columns the filters and the figures need. */
  tally(days: readonly string[], filters: readonly Filter[]): Promise<DaysTally>;
  /** The matching visitor-days' people by first month and month seen, keyed `<first month>|<month>`. */
  cohorts(days: readonly string[], filters: readonly Filter[]): Promise<Map<string, Sketch>>;
}
