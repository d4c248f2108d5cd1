import { register } from '../host/registry';
import { answerBeacon } from '../host/http/ingest';
import { plainRoute } from '../host/http/route';

register({
  kind: 'http',
  name: 'ingest-beacon',
  route: 'beacon',
  methods: ['POST', 'OPTIONS'],
  make: plainRoute((request, root) => answerBeacon(request, root.receive)),
});
