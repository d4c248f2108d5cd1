import { register } from '../host/registry';
import { answerServerHits } from '../host/http/ingest';
import { plainRoute } from '../host/http/route';

register({
  kind: 'http',
  name: 'ingest-hits',
  route: 'hits',
  methods: ['POST'],
  make: plainRoute((request, root) => answerServerHits(request, root.receive)),
});
