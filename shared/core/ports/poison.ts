/** A message taken from the poison queue, hidden from other readers until it is removed or released. */
export interface PoisonedMessage {
  /** The queue's own id of the message (not the hits message id inside it). */
  queueId: string;
  /** The receipt the queue gave with it, which removing or releasing it needs. */
  receipt: string;
  /** The message text exactly as it is queued (base64 JSON for a hits message). */
  text: string;
}

/** Why a queue or a ledger could not do what was asked. */
export interface Unavailable {
  reason: string;
}

export type Done = { ok: true } | { ok: false; error: Unavailable };

/** The poison queue of the hits queue: messages taken a few at a time, then removed or handed back. */
export interface PoisonQueue {
  /** Up to `count` visible messages, each hidden for `hideSeconds`, so one run sees each once. */
  take(count: number, hideSeconds: number): Promise<{ ok: true; messages: PoisonedMessage[] } | { ok: false; error: Unavailable }>;
  /** Deletes a message once it is safely on the hits queue. */
  remove(message: PoisonedMessage): Promise<Done>;
  /** Makes a message that stays in poison visible again now. */
  release(message: PoisonedMessage): Promise<Done>;
}

/**
 * How many times each hits message (by its id) has been put back on the hits queue. Kept outside the message, so
 * the queue contract `{ v: 1, id, hits }` stays as it is; `record` is conditional on the count read.
 */
export interface ReplayLedger {
  /** The count and a version to record against (null: never replayed). */
  read(messageId: string): Promise<{ ok: true; replays: number; version: string | null } | { ok: false; error: Unavailable }>;
  /** Records a new count if the count is still the one read at `version`; a lost race is an error, not a write. */
  record(messageId: string, replays: number, version: string | null): Promise<Done>;
}
