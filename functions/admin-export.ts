import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { exportDays } from '../shared/export/export';

register({
  kind: 'http',
  name: 'admin-export',
  route: 'admin/export',
  methods: ['GET'],
  make: (root) => async (request) => response(await exportDays(incoming(request), root.export)),
});
