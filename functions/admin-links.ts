import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { manageLinks } from '../shared/read/links/manage';

register({
  kind: 'http',
  name: 'admin-links',
  route: 'admin/links',
  methods: ['GET', 'POST'],
  make: (root) => async (request) => response(await manageLinks(incoming(request), root.links)),
});
