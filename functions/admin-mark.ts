import { register } from '../host/registry';
import { operatorSettings } from '../shared/admin/auth';
import { incoming, response } from '../host/http';
import { operatorMark } from '../shared/pages/mark';

register({
  kind: 'http',
  name: 'admin-mark',
  route: 'admin/mark',
  methods: ['GET'],
  make: (root) => {
    const settings = { ...operatorSettings(root.settings, root.admin), allowedOrigins: root.settings.ALLOWED_ORIGINS };
    return async (request) => response(await operatorMark(incoming(request), settings));
  },
});
