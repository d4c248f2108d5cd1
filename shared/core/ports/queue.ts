import type { QueuedHit } from '../message';

export interface QueueUnavailable {
  reason: string;
}

/** `sendAll` enqueues all or none: on failure it removes what it sent before anyone reads it. */
export interface HitQueue {
  sendAll(encodedMessages: readonly string[]): Promise<{ ok: true } | { ok: false; error: QueueUnavailable }>;
}

/** Puts a request's hits on the queue whole or not at all, and answers once they are there. */
export interface HitSender {
  enqueue(hits: readonly QueuedHit[]): Promise<{ ok: true } | { ok: false; error: QueueUnavailable }>;
  waiting(): { requests: number; hits: number };
}
