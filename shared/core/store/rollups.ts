import type { DayRollup } from '../rollup/day-rollup';
import type { VisitorDay } from './activity';
import type { Conditional } from './documents';

/** Point reads and conditional writes in the day's partition. */
export type DayRollups = Conditional<DayRollup, [day: string]>;

/** One point read a day, whatever the number of visitors. */
export interface RollupReader {
  onDays(days: readonly string[]): Promise<Map<string, DayRollup>>;
}

/** In the order of their daily tokens, for building an old day's rollup. */
export interface VisitorDayPages {
  /** Ordered by token, then id. */
  byToken(day: string, afterToken: string, limit: number): Promise<VisitorDay[]>;
}
