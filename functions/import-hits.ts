import { register } from '../host/registry';
import { accepted } from '../host/http/answer';
import { importRoute } from '../host/http/ingest';
import { body } from '../host/http/input';
import { receiveImport } from '../shared/ingest/import/receive';
import { IMPORT_LIMITS, importBodySchema } from '../shared/ingest/import/schemas';

register({
  kind: 'http',
  name: 'import-hits',
  route: 'import',
  methods: ['POST'],
  make: importRoute(
    body(importBodySchema, IMPORT_LIMITS.maxBodyBytes, ['application/json']),
    (asked, deps) => receiveImport(asked, deps),
    accepted,
  ),
});
