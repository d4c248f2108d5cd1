import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { listSites } from '../shared/sites/list';

register({
  kind: 'http',
  name: 'admin-sites',
  route: 'admin/sites',
  methods: ['GET'],
  make: (root) => async (request) => response(await listSites(incoming(request), { sites: root.sites.declared, operator: root.operator })),
});
