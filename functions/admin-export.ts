import { register } from '../host/registry';
import { siteAnswer } from '../host/http/site';
import { incoming, response } from '../host/http/request';
import { exportDays } from '../shared/read/export/export';

register({
  kind: 'http',
  name: 'admin-export',
  route: 'admin/export',
  methods: ['GET'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => exportDays(asked, site.export), root.operator));
  },
});
