import { register } from '../host/registry';
import { query } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { retentionCard } from '../shared/read/retention';
import { retentionQuerySchema } from '../shared/contract/queries';

register({
  kind: 'http',
  name: 'admin-retention',
  route: 'admin/retention',
  methods: ['GET'],
  make: operatorRoute(query(retentionQuerySchema), (asked, site) => retentionCard(asked, site.retention)),
});
