import { register } from '../host/registry';
import type { Answer } from '../host/http/envelope';
import { body, nothing, withHeader } from '../host/http/input';
import { adminRoute, byMethod } from '../host/http/route';
import { readConfig, writeConfig, type ConfigRead } from '../shared/read/config/manage';
import { configBodySchema } from '../shared/contract/config';

const withEtag = (read: ConfigRead): Answer => ({
  status: 200,
  body: read.config,
  headers: { etag: read.etag, 'cache-control': 'no-store' },
});

register({
  kind: 'http',
  name: 'admin-config',
  route: 'admin/config',
  methods: ['GET', 'PUT'],
  make: byMethod({
    GET: adminRoute(nothing, (_, root) => readConfig(root.config), withEtag),
    PUT: adminRoute(
      withHeader('if-match', body(configBodySchema, 256 * 1024, ['application/json'])),
      (asked, root) => writeConfig({ ifMatch: asked.header, body: asked.rest }, root.config),
      withEtag,
    ),
  }),
});
