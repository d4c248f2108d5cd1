import { register } from '../host/registry';
import { nothing } from '../host/http/input';
import { adminRoute } from '../host/http/route';
import { listSites } from '../host/http/sites';

register({
  kind: 'http',
  name: 'admin-sites',
  route: 'admin/sites',
  methods: ['GET'],
  make: adminRoute(nothing, async (_, root) => listSites((await root.sites.current()).declared)),
});
