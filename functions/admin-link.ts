import { register } from '../host/registry';
import { param } from '../host/http/input';
import { adminRoute } from '../host/http/route';
import { revokeLink } from '../shared/read/links/manage';

register({
  kind: 'http',
  name: 'admin-link',
  route: 'admin/links/{ref}',
  methods: ['DELETE'],
  make: adminRoute(param('ref'), (ref, root) => revokeLink(ref, root.links)),
});
