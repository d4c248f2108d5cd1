import type { PeriodRollup } from '../rollup/periods';
import type { Conditional } from './documents';

/** The month rollups and filter cells as the fold writes them: point reads and conditional writes. */
export type PeriodRollups = Conditional<PeriodRollup, [pk: string, id: string]>;

/** The reading side: one query in one partition, whatever the number of visitors. */
export interface PeriodReader {
  /** A partition's day rollups of these days and its month rollups from `fromMonth` to `toMonth` (null: none). */
  inPartition(pk: string, days: readonly string[], months: { from: string; to: string } | null): Promise<PeriodRollup[]>;
}
