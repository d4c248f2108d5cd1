import type { HitsMessage } from '../shared/core/message';
import { readMessage } from '../shared/core/message';
import type { KeepOutcome } from '../shared/keep/keep';
import type { Root } from './composition';
import type { QueueRegistration } from './registry';

/** What differs between the queue triggers that keep hits: their queue, their words, and the use case they call. */
export interface KeepTrigger {
  name: string;
  queueName: string;
  /** What one message is called in a log line (`hits`, `imports`). */
  message: string;
  /** What the hits are called in a log line (`hits`, `imported hits`). */
  hits: string;
  keep: (message: HitsMessage, root: Root) => Promise<KeepOutcome>;
}

/** A queue trigger that reads a hits message and keeps it, failing it so the queue retries it or moves it to poison. */
export function keepTrigger({ name, queueName, message, hits, keep }: KeepTrigger): QueueRegistration {
  return {
    kind: 'queue',
    name,
    queueName,
    connection: 'AzureWebJobsStorage',
    make: (root) => async (payload, context) => {
      const id = context.triggerMetadata?.id;
      const messageId = typeof id === 'string' ? id : 'unknown';
      const read = readMessage(payload);
      if (!read.ok) {
        // It can never be read: failing it sends it to <queue>-poison after the dequeue count, where it can be looked at.
        root.logger.error(`a ${message} message cannot be read; it will go to poison`, { function: name, messageId, reason: read.reason });
        throw new Error(`unreadable ${message} message: ${read.reason}`);
      }
      const kept = await keep(read.message, root);
      if (!kept.ok) {
        root.logger.warn(`${hits} were not kept yet; the queue will retry`, { function: name, messageId, reason: kept.reason });
        throw new Error(`the store could not keep the ${hits}: ${kept.reason}`);
      }
    },
  };
}
