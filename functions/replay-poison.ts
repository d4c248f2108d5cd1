import { register } from '../host/registry';
import { replayEveryPoison, type ReplayOutcome } from '../shared/keep/replay';

const counts = (outcome: ReplayOutcome) => ({
  moved: outcome.moved,
  left_unreadable: outcome.unreadable,
  left_over_bound: outcome.overBound,
  left_failed: outcome.failed,
  moved_not_removed: outcome.notRemoved,
});

register({
  kind: 'timer',
  name: 'replay-poison',
  // Every 15 minutes: a message poisoned by an outage goes back once the store answers again, without a hand on it.
  schedule: '0 */15 * * * *',
  make: (root) => async () => {
    const { total, queues: each } = await replayEveryPoison(root.replay);
    // Counts only: a payload is never logged.
    const fields = {
      function: 'replay-poison',
      ...counts(total),
      replay_max: root.replay.replayMax,
      queues: Object.fromEntries(Object.entries(each).map(([name, outcome]) => [name, counts(outcome)])),
      ...(total.stopped ? { stopped: total.stopped } : {}),
    };
    if (total.stopped || total.failed > 0 || total.notRemoved > 0) root.logger.warn('poison replayed in part', fields);
    else root.logger.info('poison replayed', fields);
  },
});
