import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { InvocationContext } from '@azure/functions';
import type { QueueClient, DequeuedMessageItem } from '@azure/storage-queue';
import type { QueueRegistration } from '../host/registry';
import type { HostJson } from './host-json';
import type { Logger } from '../shared/core/ports/logger';
import { errorLine } from '../shared/core/errors';

/** As the Functions host does. */
const LEASE_SECONDS = 300;

export interface QueueListener {
  /** Until the queue is empty and nothing is running. */
  drain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  /** Since start. */
  stats(): { invocations: number; failures: number; poisoned: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Decoded, and parsed when it is JSON, as the Functions host hands it over. */
function decode(text: string, encoding: HostJson['extensions']['queues']['messageEncoding']): unknown {
  const decoded = encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
  try {
    return JSON.parse(decoded);
  } catch {
    return decoded;
  }
}

/** As the Functions host runs a queue trigger, with host.json's batch, visibility, dequeue and polling settings. */
export function listenToQueue(
  registration: QueueRegistration,
  handler: (payload: unknown, context: InvocationContext) => Promise<unknown>,
  queue: QueueClient,
  poison: QueueClient,
  settings: HostJson['extensions']['queues'],
  logger: Logger,
): QueueListener {
  let running = true;
  let wake: (() => void) | null = null;
  let slotFreed: (() => void) | null = null;
  const threshold = settings.newBatchThreshold ?? Math.floor(settings.batchSize / 2) * cpus().length;
  const invocationsRunning = new Set<Promise<void>>();
  let invocations = 0;
  let failures = 0;
  let poisoned = 0;

  const settle = async (message: DequeuedMessageItem, error: unknown) => {
    failures += 1;
    const reason = errorLine(error);
    if (message.dequeueCount >= settings.maxDequeueCount) {
      await poison.sendMessage(message.messageText);
      await queue.deleteMessage(message.messageId, message.popReceipt);
      poisoned += 1;
      logger.error('message moved to poison', {
        function: registration.name,
        queue: poison.name,
        messageId: message.messageId,
        dequeueCount: message.dequeueCount,
        reason,
      });
      return;
    }
    await queue.updateMessage(message.messageId, message.popReceipt, undefined, Math.round(settings.visibilityTimeout / 1000));
    logger.warn('invocation failed; the message will be retried', {
      function: registration.name,
      messageId: message.messageId,
      dequeueCount: message.dequeueCount,
      reason,
    });
  };

  const invoke = (message: DequeuedMessageItem) => {
    invocations += 1;
    const invocation = handle(message)
      .catch((error: unknown) => logger.error('an invocation could not be run', { function: registration.name, reason: errorLine(error) }))
      .finally(() => {
        invocationsRunning.delete(invocation);
        slotFreed?.();
      });
    invocationsRunning.add(invocation);
  };

  const handle = async (message: DequeuedMessageItem) => {
    const context = new InvocationContext({
      functionName: registration.name,
      invocationId: randomUUID(),
      triggerMetadata: {
        id: message.messageId,
        dequeueCount: message.dequeueCount,
        insertionTime: message.insertedOn,
        expirationTime: message.expiresOn,
        nextVisibleTime: message.nextVisibleOn,
        popReceipt: message.popReceipt,
      },
    });
    try {
      await handler(decode(message.messageText, settings.messageEncoding), context);
    } catch (error) {
      await settle(message, error).catch((settleError) =>
        logger.error('could not settle a failed message', { reason: String(settleError) }),
      );
      return;
    }
    await queue
      .deleteMessage(message.messageId, message.popReceipt)
      .catch((error) => logger.warn('could not delete a processed message', { reason: String(error) }));
  };

  /** Starts the invocations without awaiting them; true when it found messages. */
  const pollOnce = async (): Promise<boolean> => {
    const received = await queue.receiveMessages({ numberOfMessages: settings.batchSize, visibilityTimeout: LEASE_SECONDS });
    received.receivedMessageItems.forEach(invoke);
    return received.receivedMessageItems.length > 0;
  };

  const loop = (async () => {
    let idleDelay = 100;
    while (running) {
      if (invocationsRunning.size > threshold) {
        await new Promise<void>((resolve) => (slotFreed = resolve));
        slotFreed = null;
        continue;
      }
      let found = false;
      try {
        found = await pollOnce();
      } catch (error) {
        logger.warn('the queue could not be polled', { queue: queue.name, reason: errorLine(error) });
      }
      if (found) {
        idleDelay = 100;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, idleDelay);
      });
      wake = null;
      idleDelay = Math.min(idleDelay * 2, Math.max(settings.maxPollingInterval, 100));
    }
  })();

  return {
    async drain(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      wake?.();
      while (Date.now() < deadline) {
        // The count includes hidden messages, so an empty queue with nothing running is drained.
        const properties = await queue.getProperties();
        if ((properties.approximateMessagesCount ?? 0) === 0 && invocationsRunning.size === 0) return;
        await sleep(50);
      }
      throw new Error(`queue ${queue.name} did not drain within ${timeoutMs} ms`);
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      await Promise.all(invocationsRunning);
    },
    stats: () => ({ invocations, failures, poisoned }),
  };
}
