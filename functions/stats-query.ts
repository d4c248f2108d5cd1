import { register } from '../host/registry';
import { body } from '../host/http/input';
import { keyedStats, keyRoute } from '../host/http/api-key';
import { statsQuerySchema } from '../shared/contract/stats';

register({
  kind: 'http',
  name: 'stats-query',
  route: 'v2/query',
  methods: ['POST'],
  make: (root) =>
    keyRoute(body(statsQuerySchema, 16 * 1024, ['application/json']), (asked, reader) =>
      keyedStats(reader, root.keyed.access.clock, 'site_id')(asked),
    )(root),
});
