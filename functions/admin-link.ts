import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { manageLinks } from '../shared/read/links/manage';

register({
  kind: 'http',
  name: 'admin-link',
  route: 'admin/links/{ref}',
  methods: ['DELETE'],
  make: (root) => async (request) => response(await manageLinks(incoming(request), root.links)),
});
