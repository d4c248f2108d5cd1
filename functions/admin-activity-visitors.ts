import { register } from '../host/registry';
import { query } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { activityVisitors } from '../shared/read/activity/visitors';
import { visitorsQuerySchema } from '../shared/contract/queries';

register({
  kind: 'http',
  name: 'admin-activity-visitors',
  route: 'admin/activity/visitors',
  methods: ['GET'],
  make: operatorRoute(query(visitorsQuerySchema), (asked, site) => activityVisitors(asked, site.activity)),
});
