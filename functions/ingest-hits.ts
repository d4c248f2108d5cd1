import { register } from '../host/registry';
import { accepted } from '../host/http/answer';
import { ingestRoute, serverHits } from '../host/http/ingest';
import { receiveServerHits } from '../shared/ingest/receive';
import type { AcceptedAnswer } from '../shared/contract/ingest';

register({
  kind: 'http',
  name: 'ingest-hits',
  route: 'hits',
  methods: ['POST'],
  make: ingestRoute(serverHits, (hits, root) => receiveServerHits(hits, root.receive), accepted<AcceptedAnswer>),
});
