import { register } from '../host/registry';
import { fold } from '../shared/fold/fold';
import { errorLine } from '../shared/core/errors';
import { forgetDaySecrets, forgetImportSecrets } from '../shared/ingest/day-secrets';

register({
  kind: 'timer',
  name: 'recount',
  schedule: '0 */1 * * * *',
  make: (root) => async () => {
    // Each store, the all-sites one too, folds in turn under its own lease and watermarks; a site removed keeps folding what it was sent.
    const sites = await root.sites.current();
    const several = sites.roots.size > 1;
    for (const [name, site] of [...sites.roots, ...sites.removed]) {
      const named = several ? { site: name } : {};
      const outcome = await fold((await site.configured()).fold);
      if (!outcome.ok) {
        // A busy lease is the lease working, not a fault.
        if (outcome.busy) root.logger.info('another fold is running', { function: 'recount', ...named, reason: outcome.reason });
        else
          root.logger.warn('the fold could not start; the next run folds from the same watermarks', {
            function: 'recount',
            ...named,
            reason: outcome.reason,
          });
        continue;
      }
      if (outcome.facts > 0 || outcome.records > 0)
        root.logger.info('folded', {
          function: 'recount',
          ...named,
          facts: outcome.facts,
          days: outcome.days.length,
          records: outcome.records,
          // An engagement whose page load's visit is not kept is never a new visit.
          ...(outcome.dropped > 0 ? { dropped_engagements: outcome.dropped } : {}),
        });
      // A count is a figure on a page: what was folded stands, and the next minute goes on from the watermarks written.
      if (outcome.behind !== null)
        root.logger.warn('the fold is behind; the next run goes on', { function: 'recount', ...named, reason: outcome.behind });
    }
    // All sites are read from the first site's documents up to the day of the first run that counts them together.
    await sites.markAllSitesFrom().catch((error: unknown) =>
      root.logger.warn('the day all sites began could not be kept; the next run tries again', {
        function: 'recount',
        reason: errorLine(error),
      }),
    );
    // Once a day can receive no more hits its secret goes, and with it any way to make that day's tokens again.
    try {
      const forgotten = await forgetDaySecrets(root.daySecrets);
      if (forgotten.length > 0)
        root.logger.info("days' secrets deleted", { function: 'recount', days: forgotten.length, last: forgotten.at(-1)! });
      // An import secret goes once no import has used it for a day.
      const imports = await forgetImportSecrets(root.daySecrets);
      if (imports > 0) root.logger.info('import secrets deleted', { function: 'recount', secrets: imports });
    } catch (error) {
      root.logger.warn("the days' secrets could not be deleted; the next run tries again", {
        function: 'recount',
        reason: errorLine(error),
      });
    }
  },
});
