import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { activityDepsOf } from '../shared/activity/card';
import { activityVisitors } from '../shared/activity/visitors';

register({
  kind: 'http',
  name: 'admin-activity-visitors',
  route: 'admin/activity/visitors',
  methods: ['GET'],
  make: (root) => {
    const deps = activityDepsOf(root);
    return async (request) => response(await activityVisitors(incoming(request), deps));
  },
});
