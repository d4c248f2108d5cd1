import { register } from '../host/registry';
import { foldDeps } from '../shared/counting/deps';
import { fold } from '../shared/folding/fold';

register({
  kind: 'timer',
  name: 'recount',
  // Every minute: the facts and records written since the last run folded into everything counted (see fold).
  schedule: '0 */1 * * * *',
  make: (root) => {
    const deps = foldDeps(root);
    return async () => {
      const outcome = await fold(deps);
      if (!outcome.ok) {
        // A count is a figure on a page: the held one stands, and the next minute folds from where this one began.
        root.logger.warn('the fold did not finish; the next run folds from the same marks', {
          function: 'recount',
          reason: outcome.reason,
        });
        return;
      }
      if (outcome.facts > 0 || outcome.records > 0)
        root.logger.info('folded', { function: 'recount', facts: outcome.facts, days: outcome.days.length, records: outcome.records });
    };
  },
});
