import { register } from '../host/registry';
import { created } from '../host/http/answer';
import { body, nothing } from '../host/http/input';
import { adminRoute, byMethod } from '../host/http/route';
import { createApiKey, listApiKeys } from '../shared/read/keys/manage';
import { keyBodySchema } from '../shared/contract/keys';

register({
  kind: 'http',
  name: 'admin-keys',
  route: 'admin/keys',
  methods: ['GET', 'POST'],
  make: byMethod({
    GET: adminRoute(nothing, (_, root) => listApiKeys(root.keys)),
    POST: adminRoute(body(keyBodySchema, 1024, ['application/json']), (asked, root) => createApiKey(asked, root.keys), created),
  }),
});
