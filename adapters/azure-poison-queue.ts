import type { QueueClient } from '@azure/storage-queue';
import type { PoisonQueue } from '../shared/core/ports/poison';
import { errorLine } from '../shared/core/errors';

export function azurePoisonQueue(client: QueueClient): PoisonQueue {
  const attempt = async (work: () => Promise<unknown>) => {
    try {
      await work();
      return { ok: true as const };
    } catch (error) {
      return { ok: false as const, error: { reason: errorLine(error) } };
    }
  };
  return {
    async take(count, hideSeconds) {
      try {
        const received = await client.receiveMessages({ numberOfMessages: count, visibilityTimeout: hideSeconds });
        const messages = received.receivedMessageItems.map((item) => ({
          queueId: item.messageId,
          receipt: item.popReceipt,
          text: item.messageText,
        }));
        return { ok: true, messages };
      } catch (error) {
        return { ok: false, error: { reason: errorLine(error) } };
      }
    },
    remove: (message) => attempt(() => client.deleteMessage(message.queueId, message.receipt)),
    release: (message) => attempt(() => client.updateMessage(message.queueId, message.receipt, undefined, 0)),
  };
}
