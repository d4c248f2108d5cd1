import type { PeriodRollup } from '../rollup/periods';
import type { Conditional } from './documents';

/** The first and last month (`yyyy-MM`) or year (`yyyy`) of a read, both in. */
export type Range = { from: string; to: string } | null;

export interface LongRanges {
  month: Range;
  year: Range;
}

/** The month and year rollups and filter cells as the fold writes them: point reads and conditional writes. */
export type PeriodRollups = Conditional<PeriodRollup, [pk: string, id: string]>;

/** The reading side: one query in one partition, whatever the number of visitors. */
export interface PeriodReader {
  /** A partition's rollups of these days, and of the months and years in these ranges (null: none). */
  inPartition(pk: string, days: readonly string[], spans: LongRanges): Promise<PeriodRollup[]>;
}
