import { register } from '../host/registry';
import { sessionRoute } from '../host/http/admin/sign-in';

register({
  kind: 'http',
  name: 'admin-session',
  route: 'admin/session',
  methods: ['GET', 'POST', 'DELETE'],
  make: sessionRoute,
});
