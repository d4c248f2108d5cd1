import { keepTrigger } from '../host/keep-trigger';
import { register } from '../host/registry';
import { keepHits } from '../shared/keep/keep';
import { keepBySite } from '../shared/keep/sites';
import { siteDeps } from '../host/site-root';

register(
  keepTrigger({
    name: 'keep-hits',
    // Both hosts resolve this from the HITS_QUEUE setting when they bind the trigger.
    queueName: '%HITS_QUEUE%',
    message: 'hits',
    hits: 'hits',
    keep: async (message, root) => keepBySite(message, siteDeps(await root.sites.current(), 'keep'), keepHits),
  }),
);
