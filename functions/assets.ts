import { register } from '../host/registry';
import { bytesResponse } from '../host/http';
import { assetShelf } from '../adapters/files/assets';
import { ASSETS, serveAsset } from '../shared/pages/assets';

register({
  kind: 'http',
  name: 'assets',
  route: 'assets/{name}',
  methods: ['GET'],
  make: () => {
    const shelf = assetShelf(ASSETS);
    return async (request) => bytesResponse(serveAsset(shelf(request.params.name ?? ''), (name) => request.headers.get(name)));
  },
});
