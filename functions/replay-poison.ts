import { register } from '../host/registry';
import { replayPoison } from '../shared/poison/replay';

register({
  kind: 'timer',
  name: 'replay-poison',
  // Every 15 minutes: a message poisoned by an outage goes back once the store answers again, without a hand on it.
  schedule: '0 */15 * * * *',
  make: (root) => {
    const deps = { poison: root.poisonQueue, hits: root.hitQueue, ledger: root.replayLedger, replayMax: root.settings.REPLAY_MAX };
    return async () => {
      const outcome = await replayPoison(deps);
      // One line a run, counts only: a payload is never logged.
      const fields = {
        function: 'replay-poison',
        moved: outcome.moved,
        left_unreadable: outcome.unreadable,
        left_over_bound: outcome.overBound,
        left_failed: outcome.failed,
        moved_not_removed: outcome.notRemoved,
        replay_max: deps.replayMax,
        ...(outcome.stopped ? { stopped: outcome.stopped } : {}),
      };
      if (outcome.stopped || outcome.failed > 0 || outcome.notRemoved > 0) root.logger.warn('poison replayed in part', fields);
      else root.logger.info('poison replayed', fields);
    };
  },
});
