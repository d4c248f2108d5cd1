import { register } from '../host/registry';
import { bytesResponse } from '../host/http/request';
import { serveAsset } from '../host/http/assets';

register({
  kind: 'http',
  name: 'assets',
  route: 'assets/{name}',
  methods: ['GET'],
  make: (root) => async (request) =>
    bytesResponse(serveAsset(root.assets(request.params.name ?? ''), (name) => request.headers.get(name), request.query.get('v'))),
});
