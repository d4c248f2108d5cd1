import { register } from '../host/registry';
import { keepBySite } from '../shared/sites/keep';
import { siteDeps } from '../shared/sites/root';
import { readMessage } from '../shared/hits/message';
import { keepImported } from '../shared/import/keep';
import { IMPORT_QUEUE_BINDING } from '../shared/import/queue-name';

register({
  kind: 'queue',
  name: 'keep-imports',
  // `<HITS_QUEUE>-imports`: imported hits are kept apart from live ones, so a backlog of history never delays a hit.
  queueName: IMPORT_QUEUE_BINDING,
  connection: 'AzureWebJobsStorage',
  make: (root) => async (payload, context) => {
    const id = context.triggerMetadata?.id;
    const messageId = typeof id === 'string' ? id : 'unknown';
    const read = readMessage(payload);
    if (!read.ok) {
      root.logger.error('an imports message cannot be read; it will go to poison', {
        function: 'keep-imports',
        messageId,
        reason: read.reason,
      });
      throw new Error(`unreadable imports message: ${read.reason}`);
    }
    const kept = await keepBySite(read.message, siteDeps(root.sites, 'keepImports'), keepImported);
    if (!kept.ok) {
      root.logger.warn('imported hits were not kept yet; the queue will retry', {
        function: 'keep-imports',
        messageId,
        reason: kept.reason,
      });
      throw new Error(`the store could not keep the imported hits: ${kept.reason}`);
    }
  },
});
