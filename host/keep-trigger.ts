import type { HitsMessage } from '../shared/core/message';
import { readMessage } from '../shared/core/message';
import type { KeepOutcome } from '../shared/keep/keep';
import type { Root } from './composition';
import type { QueueRegistration } from './registry';

export interface KeepTrigger {
  name: string;
  queueName: string;
  /** In a log line: `hits`, `imports`. */
  message: string;
  /** In a log line: `hits`, `imported hits`. */
  hits: string;
  keep: (message: HitsMessage, root: Root) => Promise<KeepOutcome>;
}

/** Failing a message makes the queue retry it or move it to poison. */
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
        // It can never be read, so it goes to <queue>-poison after the dequeue count, where it can be looked at.
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
