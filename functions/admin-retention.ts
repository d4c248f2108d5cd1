import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { retentionCard } from '../shared/read/retention';
import { siteAnswer } from '../host/http/site';

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
