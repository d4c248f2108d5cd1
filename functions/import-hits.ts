import { register } from '../host/registry';
import { importRoute } from '../host/http/ingest';

register({
  kind: 'http',
  name: 'import-hits',
  route: 'import',
  methods: ['POST'],
  make: importRoute,
});
