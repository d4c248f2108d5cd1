import { register } from '../host/registry';
import { operatorSettings } from '../shared/admin/auth';
import { incoming, response } from '../host/http';
import { answerSession } from '../shared/admin/sign-in';

register({
  kind: 'http',
  name: 'admin-session',
  route: 'admin/session',
  methods: ['GET', 'POST', 'DELETE'],
  make: (root) => {
    const settings = operatorSettings(root.settings, root.admin);
    return async (request) => response(await answerSession(incoming(request), settings));
  },
});
