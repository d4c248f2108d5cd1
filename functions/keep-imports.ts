import { keepTrigger } from '../host/keep-trigger';
import { register } from '../host/registry';
import { keepImported } from '../shared/keep/imports';
import { IMPORT_QUEUE_BINDING } from '../shared/ingest/import/queue-name';
import { keepBySite } from '../shared/keep/sites';
import { siteDeps } from '../host/site-root';

register(
  keepTrigger({
    name: 'keep-imports',
    // `<HITS_QUEUE>-imports`: imported hits are kept apart from live ones, so a backlog of history never delays a hit.
    queueName: IMPORT_QUEUE_BINDING,
    message: 'imports',
    hits: 'imported hits',
    keep: async (message, root) => keepBySite(message, siteDeps(await root.sites.current(), 'keepImports'), keepImported),
  }),
);
