import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { operatorSettings } from '../shared/admin/auth';
import { nowCard } from '../shared/now/now';

register({
  kind: 'http',
  name: 'admin-now',
  route: 'admin/now',
  methods: ['GET'],
  make: (root) => {
    const deps = { store: root.store, clock: root.clock, logger: root.logger, operator: operatorSettings(root.settings, root.admin) };
    return async (request) => response(await nowCard(incoming(request), deps));
  },
});
