import { register } from '../host/registry';
import { bytesResponse } from '../host/http';
import { assetShelf } from '../adapters/files/assets';
import { DASHBOARD, serveAsset } from '../shared/pages/assets';

register({
  kind: 'http',
  name: 'admin-page',
  route: 'admin',
  methods: ['GET'],
  make: () => {
    const shelf = assetShelf({ 'admin.html': DASHBOARD });
    return async (request) => bytesResponse(serveAsset(shelf('admin.html'), (name) => request.headers.get(name)));
  },
});
