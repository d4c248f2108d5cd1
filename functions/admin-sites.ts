import { register } from '../host/registry';
import { adminRoute, nothing } from '../host/http/route';
import { listSites } from '../host/http/sites';

register({
  kind: 'http',
  name: 'admin-sites',
  route: 'admin/sites',
  methods: ['GET'],
  make: adminRoute(nothing, (_, root) => listSites(root.sites.declared)),
});
