import { register } from '../host/registry';
import { param } from '../host/http/input';
import { adminRoute } from '../host/http/route';
import { revokeApiKey } from '../shared/read/keys/manage';

register({
  kind: 'http',
  name: 'admin-key',
  route: 'admin/keys/{ref}',
  methods: ['DELETE'],
  make: adminRoute(param('ref'), (ref, root) => revokeApiKey(ref, root.keys)),
});
