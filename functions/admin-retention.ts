import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { retentionCard } from '../shared/read/retention';
import { siteAnswer } from '../shared/sites/read';

register({
  kind: 'http',
  name: 'admin-retention',
  route: 'admin/retention',
  methods: ['GET'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => retentionCard(asked, site.retention), root.operator));
  },
});
