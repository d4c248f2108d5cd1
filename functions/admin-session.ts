import { register } from '../host/registry';
import { plainRoute } from '../host/http/route';
import { answerSession } from '../host/http/admin/sign-in';

register({
  kind: 'http',
  name: 'admin-session',
  route: 'admin/session',
  methods: ['GET', 'POST', 'DELETE'],
  make: plainRoute((request, root) => answerSession(request, root.operator)),
});
