import { register } from '../host/registry';
import { created } from '../host/http/answer';
import { body, nothing } from '../host/http/input';
import { adminRoute, byMethod } from '../host/http/route';
import { createLink, listLinks } from '../shared/read/links/manage';
import { linkBodySchema } from '../shared/contract/queries';

register({
  kind: 'http',
  name: 'admin-links',
  route: 'admin/links',
  methods: ['GET', 'POST'],
  make: byMethod({
    GET: adminRoute(nothing, (_, root) => listLinks(root.links)),
    POST: adminRoute(body(linkBodySchema, 4096, ['application/json']), (asked, root) => createLink(asked, root.links), created),
  }),
});
