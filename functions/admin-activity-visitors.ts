import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { activityVisitors } from '../shared/activity/visitors';

register({
  kind: 'http',
  name: 'admin-activity-visitors',
  route: 'admin/activity/visitors',
  methods: ['GET'],
  make: (root) => async (request) => response(await activityVisitors(incoming(request), root.activity)),
});
