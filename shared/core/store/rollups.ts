import type { DayRollup } from '../rollup/day-rollup';
import type { VisitorDay } from './activity';
import type { Conditional } from './documents';

/** The day rollups as the fold writes them: a point read, and conditional writes, in the day's partition. */
export type DayRollups = Conditional<DayRollup, [day: string]>;

/** The reading side: the rollups of some days, each a point read, whatever the number of visitors. */
export interface RollupReader {
  /** The rollup of each day that has one. */
  onDays(days: readonly string[]): Promise<Map<string, DayRollup>>;
}

/** One page of a day's visitor-days in the order of their daily tokens, for building a day's rollup. */
export interface VisitorDayPages {
  /** The first `limit` visitor-days of the day whose token sorts after `afterToken`, by token then id. */
  byToken(day: string, afterToken: string, limit: number): Promise<VisitorDay[]>;
}
