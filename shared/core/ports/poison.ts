/** Hidden from other readers until removed or released. */
export interface PoisonedMessage {
  /** The queue's id, not the hits message id. */
  queueId: string;
  /** Removing or releasing needs it. */
  receipt: string;
  /** Exactly as queued: base64 JSON for a hits message. */
  text: string;
}

export interface Unavailable {
  reason: string;
}

export type Done = { ok: true } | { ok: false; error: Unavailable };

export interface PoisonQueue {
  /** Each is hidden for `hideSeconds`, so one run sees it once. */
  take(count: number, hideSeconds: number): Promise<{ ok: true; messages: PoisonedMessage[] } | { ok: false; error: Unavailable }>;
  /** Only once it is safely on the hits queue. */
  remove(message: PoisonedMessage): Promise<Done>;
  release(message: PoisonedMessage): Promise<Done>;
}

/**
 * How often each hits message was put back, kept outside it so the contract `{ v: 1, id, hits }` stays.
 * `record` is conditional on the count read.
 */
export interface ReplayLedger {
  /** `version` is null when never replayed. */
  read(messageId: string): Promise<{ ok: true; replays: number; version: string | null } | { ok: false; error: Unavailable }>;
  /** A lost race is an error, not a write. */
  record(messageId: string, replays: number, version: string | null): Promise<Done>;
}
