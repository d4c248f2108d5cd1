import { register } from '../host/registry';
import { plausibleEventRoute } from '../host/http/ingest';

register({
  kind: 'http',
  name: 'ingest-event',
  route: 'event',
  methods: ['POST', 'OPTIONS'],
  make: plausibleEventRoute,
});
