import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { nowCard } from '../shared/now/now';

register({
  kind: 'http',
  name: 'admin-now',
  route: 'admin/now',
  methods: ['GET'],
  make: (root) => async (request) => response(await nowCard(incoming(request), root.now)),
});
