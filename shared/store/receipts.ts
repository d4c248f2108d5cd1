import type { Created } from './documents';

/** The partition of the receipts. */
export const RECEIPTS_PK = 'receipts';

/** How long a receipt is kept, in seconds (14 days): longer than a queue message can live (7 days), so a message never outlives its receipt. */
export const RECEIPT_TTL_SECONDS = 1_209_600;

/** A message finished: every document it changes holds its change (pk `receipts`, id the message id). */
export interface Receipt {
  id: string;
  pk: typeof RECEIPTS_PK;
  kind: 'receipt';
  /** When it finished, epoch seconds. */
  at: number;
  /** How many hits the message carried. */
  hits: number;
  ttl: number;
}

/** The receipts of finished messages. */
export interface Receipts {
  /** The receipt of one message, or null when it has not finished. */
  read(id: string): Promise<Receipt | null>;
  /** The receipts among these message ids, by id (one query). */
  readMany(ids: readonly string[]): Promise<Map<string, Receipt>>;
  create(receipt: Receipt): Promise<Created>;
}
