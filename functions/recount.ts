import { register } from '../host/registry';
import { recount } from '../shared/counting/recount';
import { recountDeps } from '../shared/counting/deps';

register({
  kind: 'timer',
  name: 'recount',
  // Every minute: today's visits to the minute, the hourly read and the reconciliation when due (see recount).
  schedule: '0 */1 * * * *',
  make: (root) => {
    const deps = recountDeps(root);
    return async () => {
      const outcome = await recount(deps);
      if (!outcome.ok) {
        // A count is a figure on a page: the held one stands, and the next minute tries again.
        root.logger.warn('the recount did not run; the held count stands', { function: 'recount', reason: outcome.reason });
        return;
      }
      if (outcome.wrote) root.logger.info('visits recounted', { function: 'recount', read: outcome.plan.read, rows: outcome.rows, visits: outcome.visits, reconciled: outcome.reconciled });
    };
  },
});
