import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { activityCard, activityDepsOf } from '../shared/activity/card';

register({
  kind: 'http',
  name: 'admin-activity',
  route: 'admin/activity',
  methods: ['GET'],
  make: (root) => {
    const deps = activityDepsOf(root);
    return async (request) => response(await activityCard(incoming(request), deps));
  },
});
