import { register } from '../host/registry';
import { bytesResponse } from '../host/http/request';
import { serveAsset } from '../host/http/assets';

register({
  kind: 'http',
  name: 'admin-page',
  route: 'admin',
  methods: ['GET'],
  make: (root) => async (request) => bytesResponse(serveAsset(root.dashboard('admin.html'), (name) => request.headers.get(name))),
});
