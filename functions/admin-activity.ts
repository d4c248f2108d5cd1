import { register } from '../host/registry';
import { query } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { activityCard } from '../shared/read/activity/card';
import { activityQuerySchema } from '../shared/contract/queries';

register({
  kind: 'http',
  name: 'admin-activity',
  route: 'admin/activity',
  methods: ['GET'],
  make: operatorRoute(query(activityQuerySchema), async (asked, site) => activityCard(asked, (await site.configured()).activity)),
});
