import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { answerSession } from '../shared/http/admin/sign-in';

register({
  kind: 'http',
  name: 'admin-session',
  route: 'admin/session',
  methods: ['GET', 'POST', 'DELETE'],
  make: (root) => async (request) => response(await answerSession(incoming(request), root.operator)),
});
