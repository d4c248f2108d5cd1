import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { operatorSettings } from '../shared/admin/auth';
import { exportDays } from '../shared/export/export';

register({
  kind: 'http',
  name: 'admin-export',
  route: 'admin/export',
  methods: ['GET'],
  make: (root) => {
    const deps = { store: root.store, clock: root.clock, logger: root.logger, operator: operatorSettings(root.settings, root.admin) };
    return async (request) => response(await exportDays(incoming(request), deps));
  },
});
