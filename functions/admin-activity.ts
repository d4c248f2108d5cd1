import { register } from '../host/registry';
import { query } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { periodReport } from '../shared/read/activity/report';
import { activityQuerySchema } from '../shared/contract/queries';

register({
  kind: 'http',
  name: 'admin-activity',
  route: 'admin/activity',
  methods: ['GET'],
  make: operatorRoute(query(activityQuerySchema), (asked, site) => periodReport(asked, site.activity)),
});
