import { register } from '../host/registry';
import { operatorRoute, query } from '../host/http/route';
import { retentionCard, retentionQuerySchema } from '../shared/read/retention';

register({
  kind: 'http',
  name: 'admin-retention',
  route: 'admin/retention',
  methods: ['GET'],
  make: operatorRoute(query(retentionQuerySchema), (asked, site) => retentionCard(asked, site.retention)),
});
