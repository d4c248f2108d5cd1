import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { receiveImport } from '../shared/import/receive';

register({
  kind: 'http',
  name: 'import-hits',
  route: 'import',
  methods: ['POST'],
  make: (root) => async (request) => response(await receiveImport(incoming(request), root.imports)),
});
