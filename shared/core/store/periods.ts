import type { PeriodRollup } from '../rollup/periods';
import type { Conditional } from './documents';

/** `yyyy-MM-dd`, `yyyy-MM` and `yyyy`, all in one partition. */
export type Spans = Record<PeriodRollup['span'], readonly string[]>;

export type PeriodRollups = Conditional<PeriodRollup, [pk: string, id: string]>;

/** One query in one partition, whatever the number of visitors. */
export interface PeriodReader {
  inPartition(pk: string, spans: Spans): Promise<PeriodRollup[]>;
}
