import { register } from '../host/registry';
import { beaconRoute } from '../host/http/ingest';

register({
  kind: 'http',
  name: 'ingest-beacon',
  route: 'beacon',
  methods: ['POST', 'OPTIONS'],
  make: beaconRoute,
});
