import type { VisitorDay } from './activity';
import type { Created } from './documents';

export const OLD_DAYS_MIGRATION = 'old-days-rekeyed';

/** What the migration of days kept before the day's secrets reads and writes, each call in one day's partition. */
export interface OldDays {
  /** The day's visitor-days whose token is not made again yet, at most `limit`. */
  unkeyed(day: string, limit: number): Promise<VisitorDay[]>;
  /** The networks the day's visitor-days keep other than `x`, at most `limit`. */
  networks(day: string, limit: number): Promise<string[]>;
  /** 409 (`exists`) when a run before made it. */
  create(doc: VisitorDay): Promise<Created>;
  /** Gone already is done. */
  remove(day: string, id: string): Promise<void>;
  /** Whether a landed note of an import written after `watermark` names the day: its facts are still to fold. */
  landedAfter(day: string, watermark: number): Promise<boolean>;
  /** The day's facts, at most `limit`: their ids and watermarks. */
  facts(day: string, limit: number): Promise<Array<{ id: string; watermark: number }>>;
  /** Gone already is done. */
  removeFact(day: string, id: string): Promise<void>;
}
