import type { BotReason } from '../identity/who';
import type { Dimension } from '../dimensions';
import type { Sketch } from '../sketch';
import type { ImportedTotals } from './imports';
import type { ByWho, RollupCounts } from './rollups';
import type { Conditional } from './documents';

/** The whole site's month and year rollups. */
export const MONTHS_PK = 'months';

export type Span = 'day' | 'month' | 'year';

/** As the chart draws them. */
export interface DayFigures {
  visitor_days: ByWho;
  left_out: Record<BotReason, number>;
  page_loads: number;
  /** Estimates; absent on days folded before. */
  people_each?: number;
  people_new?: number;
  /** Absent on days folded before returning people were kept. */
  returning?: number;
}

/**
 * The site's month or year (pk `months`), or one filter value's cell of a day, month or year (pk `cells:<dimension>:<hash>`).
 * A partition holds one value's cells of every period, so any period of one filter is one query.
 */
export interface PeriodRollup extends RollupCounts {
  id: string;
  pk: string;
  kind: 'period-rollup';
  span: Span;
  /** `yyyy-MM-dd`, `yyyy-MM` or `yyyy`. */
  at: string;
  /** Null for the site's own rollup. */
  filter: { dimension: Dimension; value: string } | null;
  people_sketch: Sketch;
  /** Absent on one folded before new people were kept. */
  new_sketch?: Sketch;
  /** The union of its days' returning people; absent on a day cell folded before they were kept. */
  returning_sketch?: Sketch;
  sketch_partial: boolean;
  /** A slice at or before a day's watermark is in already. */
  folded_days: Record<string, number>;
  /** So a chart by day reads the month, not its days. */
  by_day: Record<string, DayFigures>;
  /** The site's months and years only. */
  imported?: Record<string, ImportedTotals>;
}

/** `yyyy-MM-dd`, `yyyy-MM` and `yyyy`, all in one partition. */
export type Spans = Record<PeriodRollup['span'], readonly string[]>;

export type PeriodRollups = Conditional<PeriodRollup, [pk: string, id: string]>;

/** One query in one partition, whatever the number of visitors. */
export interface PeriodReader {
  inPartition(pk: string, spans: Spans): Promise<PeriodRollup[]>;
}
