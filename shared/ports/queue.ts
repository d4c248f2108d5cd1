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
