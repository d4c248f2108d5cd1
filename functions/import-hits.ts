import { register } from '../host/registry';
import { importForSite } from '../shared/sites/import';
import { incoming, response } from '../host/http/request';
import { receiveImport } from '../shared/ingest/import/receive';

register({
  kind: 'http',
  name: 'import-hits',
  route: 'import',
  methods: ['POST'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await importForSite(asked, root.sites, root.imports, (deps) => receiveImport(asked, deps)));
  },
});
