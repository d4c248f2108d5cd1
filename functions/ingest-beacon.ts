import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { receiveBeacon } from '../shared/ingest/receive';

register({
  kind: 'http',
  name: 'ingest-beacon',
  route: 'beacon',
  methods: ['POST', 'OPTIONS'],
  make: (root) => async (request) => response(await receiveBeacon(incoming(request), root.receive)),
});
