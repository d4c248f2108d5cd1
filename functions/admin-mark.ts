import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { operatorMark } from '../shared/http/pages/mark';

register({
  kind: 'http',
  name: 'admin-mark',
  route: 'admin/mark',
  methods: ['GET'],
  make: (root) => async (request) => response(await operatorMark(incoming(request), root.mark)),
});
