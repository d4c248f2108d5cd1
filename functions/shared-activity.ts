import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { sharedActivity } from '../shared/read/links/open';

register({
  kind: 'http',
  name: 'shared-activity',
  route: 'shared/activity',
  methods: ['GET'],
  make: (root) => async (request) => response(await sharedActivity(incoming(request), root.shared)),
});
