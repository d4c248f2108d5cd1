import { register } from '../host/registry';
import { byMethod } from '../host/http/route';
import { sessionRoute, sessionState, signIn, signOut } from '../host/http/admin/sign-in';

register({
  kind: 'http',
  name: 'admin-session',
  route: 'admin/session',
  methods: ['GET', 'POST', 'DELETE'],
  make: byMethod({ GET: sessionRoute(sessionState), POST: sessionRoute(signIn), DELETE: sessionRoute(signOut) }),
});
