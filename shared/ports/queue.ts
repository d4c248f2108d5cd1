import type { QueuedHit } from '../hits/message';

/** Why the queue could not take a request's messages. */
export interface QueueUnavailable {
  reason: string;
}

/**
 * The queue the ingest endpoints hand hits to. `sendAll` takes encoded messages and enqueues all of them or none:
 * on failure, any message already sent is removed again before it can be read.
 */
export interface HitQueue {
  sendAll(encodedMessages: readonly string[]): Promise<{ ok: true } | { ok: false; error: QueueUnavailable }>;
}

/**
 * Where the ingest endpoints put a request's counted hits: on the queue whole, or not at all. Answers once the
 * message that holds them is on the queue (or could not be put there).
 */
export interface HitSink {
  enqueue(hits: readonly QueuedHit[]): Promise<{ ok: true } | { ok: false; error: QueueUnavailable }>;
}
