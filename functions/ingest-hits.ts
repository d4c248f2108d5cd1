import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { receiveServerHits } from '../shared/ingest/receive';

register({
  kind: 'http',
  name: 'ingest-hits',
  route: 'hits',
  methods: ['POST'],
  make: (root) => async (request) => response(await receiveServerHits(incoming(request), root.receive)),
});
