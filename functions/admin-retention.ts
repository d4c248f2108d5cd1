import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { retentionCard } from '../shared/returning/retention';

register({
  kind: 'http',
  name: 'admin-retention',
  route: 'admin/retention',
  methods: ['GET'],
  make: (root) => async (request) => response(await retentionCard(incoming(request), root.retention)),
});
