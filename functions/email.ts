import { register } from '../host/registry';
import { mailRun } from '../shared/read/email/run';

register({
  kind: 'timer',
  name: 'email',
  schedule: '30 */1 * * * *',
  make: (root) => async () => {
    const outcome = await mailRun(root.mail);
    if (outcome.sent > 0 || outcome.failed > 0)
      root.logger.info('mail sent', { function: 'email', sent: outcome.sent, failed: outcome.failed });
  },
});
