import type { Conditional, Created } from './documents';
import { VISITORS_PK } from './visitors';

/** The partition of the landed notes: one a message keep-imports kept, read by the fold in the order of their marks. */
export const IMPORTS_PK = 'imports';

/** The import ledger's id in the `visitors` partition. */
export const IMPORT_LEDGER_ID = 'import-ledger';

/**
 * What the import endpoint keeps of imports (pk `visitors`, id `import-ledger`), created once, before the first
 * imported hit is queued, and never changed: the first day counted live, so every later import takes by default only
 * the days before it, however far back the imports have moved `counted_from` since.
 */
export interface ImportLedger {
  id: typeof IMPORT_LEDGER_ID;
  pk: typeof VISITORS_PK;
  kind: 'import-ledger';
  /** The first day counted live when the first import began (that day itself when nothing was counted yet). */
  live_from: string;
  /** When the first import began (ISO 8601 UTC). */
  since: string;
}

/** The ledger, read by the endpoint and created once (a create that answers `exists` lost to another batch: read it). */
export type ImportLedgers = Conditional<ImportLedger, []>;

/**
 * A note that one imported message's facts are kept (pk `imports`, id `landed:<message id>`), created once by
 * keep-imports after the facts (or by the import endpoint after a day's imported totals): its mark is at or after the
 * marks of every fact it names, so the fold, reading the notes up to its settled mark, learns which old days have facts
 * to fold before it reads them. It expires with the facts.
 */
export interface LandedImport {
  id: string;
  pk: typeof IMPORTS_PK;
  kind: 'import-landed';
  message: string;
  /** The UTC days the message's facts are on. */
  days: string[];
  ttl: number;
}

/** The landed note's id for a message. */
export const landedId = (message: string) => `landed:${message}`;

/** The landed notes: keep-imports and the endpoint create them; the fold reads those written between two marks. */
export interface LandedImports {
  create(note: LandedImport): Promise<Created>;
  /** Whether a message's note is there, so its facts are all kept: the import endpoint's point read before queuing it. */
  has(message: string): Promise<boolean>;
  /** The days of the first `limit` notes written after mark `after` and at or before `upTo`, in the order of their marks (one partition query). */
  changed(after: number, upTo: number, limit: number): Promise<Array<{ days: string[]; mark: number }>>;
}

/**
 * A day's totals imported from another tool (Plausible's CSV export), carried by a fact of their own and set (never
 * added) on the day's rollup by the fold: people cannot be rebuilt from them, but the day's visits by people can.
 */
export interface ImportedTotals {
  /** The tool they came from. */
  source: string;
  /** Its daily unique visitors: the day's visits by people, one a person a day. */
  visitors: number;
  pageviews: number | null;
  visits: number | null;
  /** Pageviews by path (the query string dropped), the largest kept. */
  pages: Record<string, number>;
  /** Visitors by the tool's source name ("Google", "Direct / None"), the largest kept. */
  sources: Record<string, number>;
  /** Visitors by two-letter country code. */
  countries: Record<string, number>;
}
