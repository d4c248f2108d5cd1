import { register } from '../host/registry';
import { keepBySite } from '../shared/sites/keep';
import { siteDeps } from '../shared/sites/root';
import { readMessage } from '../shared/hits/message';
import { keepHits } from '../shared/keeping/keep';

register({
  kind: 'queue',
  name: 'keep-hits',
  // Resolved from the HITS_QUEUE setting by the Functions host (and by the local host) when it binds the trigger.
  queueName: '%HITS_QUEUE%',
  connection: 'AzureWebJobsStorage',
  make: (root) => async (payload, context) => {
    const id = context.triggerMetadata?.id;
    const messageId = typeof id === 'string' ? id : 'unknown';
    const read = readMessage(payload);
    if (!read.ok) {
      // It can never be read: failing it sends it to <queue>-poison after the dequeue count, where it can be looked at.
      root.logger.error('a hits message cannot be read; it will go to poison', { function: 'keep-hits', messageId, reason: read.reason });
      throw new Error(`unreadable hits message: ${read.reason}`);
    }
    const kept = await keepBySite(read.message, siteDeps(root.sites, 'keep'), keepHits);
    if (!kept.ok) {
      root.logger.warn('hits were not kept yet; the queue will retry', { function: 'keep-hits', messageId, reason: kept.reason });
      throw new Error(`the store could not keep the hits: ${kept.reason}`);
    }
  },
});
