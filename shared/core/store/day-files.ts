import { z } from 'zod';
import type { Dimension, Filter } from '../dimensions';
import type { Who } from '../identity/who';
import type { Sketch } from '../sketch';
import type { RollupCounts } from './rollups';

/** The files' layout: a file of another is written again by the day files' migration, and read from the store meanwhile. */
export const DAY_FILE_LAYOUT = 2;

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

/** A count of a token's: `field` of RollupCounts, and `key` within it when the field is a map ('' for a number). */
export interface CountEntry {
  field: string;
  key: string;
  count: number;
}

/** Registers of a sketch, `[register, rank]`. */
export type Registers = Array<[number, number]>;

/**
 * One daily token's visitor-days in a day's columnar copy: its values of each dimension (as a people's sketch matches
 * them, any kind), its people's counts as entries, and its sketches' registers, so a question is a WHERE on the columns
 * and every figure an aggregate of the matching rows.
 */
export interface TokenRow {
  day: string;
  token: string;
  /** Null for a token whose every row is loopback, which no filter matches. */
  who: Who | null;
  values: Record<Dimension, string[]>;
  /** A person's counts, as the day rollup adds them; none for other kinds. */
  counts: CountEntry[];
  people: Registers;
  fresh: Registers;
  back: Registers;
  /** Its people's registers by their first day, for retention: `[first day, register, rank]`. */
  firsts: Array<[string, number, number]>;
  /** Kept before visitor-days carried the sketch. */
  partial: boolean;
}

/** Writes every kept closed day's file in this layout, newest day first; never renamed, its progress is kept under it. */
export const DAY_FILES_MIGRATION = `day-files-v${DAY_FILE_LAYOUT}`;

/** Its position: the next day to write. Every closed day after it has its file. */
export const dayFilesPlace = z.strictObject({ day: z.string() });
