import { QueueClient, type StoragePipelineOptions } from '@azure/storage-queue';
import type { TokenCredential } from '@azure/identity';
import type { HitQueue } from '../shared/core/ports/queue';
import { errorLine } from '../shared/core/errors';

/** A multi-message request's messages stay hidden until all are on the queue. */
const HOLD_SECONDS = 60;

const pipeline: StoragePipelineOptions = {
  retryOptions: { maxTries: 3, retryDelayInMs: 200, maxRetryDelayInMs: 1000, tryTimeoutInMs: 10_000 },
};

/** A connection string for Azurite and keys; an endpoint for a managed identity. */
export type QueueLocation = { connectionString: string } | { serviceUri: string; credential: TokenCredential };

export function queueClient(location: QueueLocation, queueName: string): QueueClient {
  if ('connectionString' in location) return new QueueClient(location.connectionString, queueName, pipeline);
  return new QueueClient(`${location.serviceUri.replace(/\/+$/, '')}/${queueName}`, location.credential, pipeline);
}

/** One message is atomic; several are sent hidden and shown once all are there, else deleted before anyone sees them. */
export function azureHitQueue(client: QueueClient): HitQueue {
  return {
    async sendAll(messages) {
      if (messages.length === 1) {
        try {
          await client.sendMessage(messages[0]!);
          return { ok: true };
        } catch (error) {
          return { ok: false, error: { reason: errorLine(error) } };
        }
      }
      const sent: { messageId: string; popReceipt: string }[] = [];
      try {
        for (const message of messages) {
          const response = await client.sendMessage(message, { visibilityTimeout: HOLD_SECONDS });
          sent.push({ messageId: response.messageId, popReceipt: response.popReceipt });
        }
      } catch (error) {
        await Promise.allSettled(sent.map((one) => client.deleteMessage(one.messageId, one.popReceipt)));
        return { ok: false, error: { reason: errorLine(error) } };
      }
      // One that cannot be shown still shows itself when its hold runs out.
      await Promise.allSettled(sent.map((one) => client.updateMessage(one.messageId, one.popReceipt, undefined, 0)));
      return { ok: true };
    },
  };
}
