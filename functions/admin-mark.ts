import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { operatorMark } from '../shared/pages/mark';

register({
  kind: 'http',
  name: 'admin-mark',
  route: 'admin/mark',
  methods: ['GET'],
  make: (root) => {
    const settings = { operatorKey: root.settings.OPERATOR_KEY, hashKey: root.settings.HASH_KEY, allowedOrigins: root.settings.ALLOWED_ORIGINS };
    return async (request) => response(await operatorMark(incoming(request), settings));
  },
});
