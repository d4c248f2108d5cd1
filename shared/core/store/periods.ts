import type { PeriodRollup } from '../rollup/periods';
import type { Conditional } from './documents';

/** The days (`yyyy-MM-dd`), months (`yyyy-MM`) and years (`yyyy`) a read asks of one partition. */
export type Spans = Record<PeriodRollup['span'], readonly string[]>;

/** The month and year rollups and filter cells as the fold writes them: point reads and conditional writes. */
export type PeriodRollups = Conditional<PeriodRollup, [pk: string, id: string]>;

/** The reading side: one query in one partition, whatever the number of visitors. */
export interface PeriodReader {
  /** A partition's rollups of these days, months and years. */
  inPartition(pk: string, spans: Spans): Promise<PeriodRollup[]>;
}
