import { register } from '../host/registry';
import { query } from '../host/http/input';
import { sharedRoute } from '../host/http/shared-link';
import { sharedActivity } from '../shared/read/links/shared';
import { activityQuerySchema } from '../shared/contract/queries';

register({
  kind: 'http',
  name: 'shared-activity',
  route: 'shared/activity',
  methods: ['GET'],
  make: sharedRoute(query(activityQuerySchema), sharedActivity),
});
