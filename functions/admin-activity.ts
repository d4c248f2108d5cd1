import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { activityCard } from '../shared/activity/card';

register({
  kind: 'http',
  name: 'admin-activity',
  route: 'admin/activity',
  methods: ['GET'],
  make: (root) => async (request) => response(await activityCard(incoming(request), root.activity)),
});
