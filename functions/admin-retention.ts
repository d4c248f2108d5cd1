import { register } from '../host/registry';
import { query } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { retentionCard, retentionQuerySchema } from '../shared/read/retention';

register({
  kind: 'http',
  name: 'admin-retention',
  route: 'admin/retention',
  methods: ['GET'],
  make: operatorRoute(query(retentionQuerySchema), (asked, site) => retentionCard(asked, site.retention)),
});
