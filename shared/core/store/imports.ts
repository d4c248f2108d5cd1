import type { Conditional, Created } from './documents';
import { VISITORS_PK } from './visitors';

/** One landed note a message, read by the fold in the order of their watermarks. */
export const IMPORTS_PK = 'imports';

export const IMPORT_LEDGER_ID = 'import-ledger';

/**
 * Created once before the first imported hit is queued, never changed: later imports take only the days before it,
 * however far back imports have moved `counted_from`.
 */
export interface ImportLedger {
  id: typeof IMPORT_LEDGER_ID;
  pk: typeof VISITORS_PK;
  kind: 'import-ledger';
  /** That day itself when nothing was counted yet. */
  live_from: string;
  since: string;
}

/** A create that answers `exists` lost to another batch, which then reads it. */
export type ImportLedgers = Conditional<ImportLedger, []>;

/**
 * Created after the facts it names, so its watermark is at or after theirs and the fold learns which old days to read.
 * It expires with the facts.
 */
export interface LandedImport {
  id: string;
  pk: typeof IMPORTS_PK;
  kind: 'import-landed';
  message: string;
  days: string[];
  ttl: number;
}

export const landedId = (message: string) => `landed:${message}`;

/** keep-imports and the endpoint create them; the fold reads those written between two watermarks. */
export interface LandedImports {
  create(note: LandedImport): Promise<Created>;
  /** The import endpoint reads it before queuing, since a note means all the message's facts are kept. */
  has(message: string): Promise<boolean>;
  /** In the order of their watermarks; one partition query. */
  changed(after: number, upTo: number, limit: number): Promise<Array<{ days: string[]; watermark: number }>>;
}

/** Set, never added, on the day's rollup: people cannot be rebuilt from them, but the day's visits by people can. */
export interface ImportedTotals {
  source: string;
  /** The tool's daily unique visitors: visits by people, one a person a day. */
  visitors: number;
  pageviews: number | null;
  visits: number | null;
  /** Query strings dropped, the largest kept. */
  pages: Record<string, number>;
  /** By the tool's own source names ("Google", "Direct / None"), the largest kept. */
  sources: Record<string, number>;
  countries: Record<string, number>;
}
