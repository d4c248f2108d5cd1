import type { QueuedHit } from '../message';

/** Why the queue could not take a request's messages. */
export interface QueueUnavailable {
  reason: string;
}

/**
 * The hit queue (the hits queue, or the imports queue), as the hit sender and the import endpoint send to it. `sendAll` takes encoded messages and enqueues all of them or none:
 * on failure, any message already sent is removed again before it can be read.
 */
export interface HitQueue {
  sendAll(encodedMessages: readonly string[]): Promise<{ ok: true } | { ok: false; error: QueueUnavailable }>;
}

/**
 * What the ingest endpoints hand a request's counted hits to: it puts them on the hit queue whole, or not at all, and
 * answers once the message that holds them is on the queue (or could not be put there).
 */
export interface HitSender {
  enqueue(hits: readonly QueuedHit[]): Promise<{ ok: true } | { ok: false; error: QueueUnavailable }>;
  /** The requests and hits waiting in its open batch, not sent yet. */
  waiting(): { requests: number; hits: number };
}
