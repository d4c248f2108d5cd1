import { register } from '../host/registry';
import { siteAnswer } from '../shared/sites/read';
import { incoming, response } from '../host/http';
import { activityVisitors } from '../shared/read/activity/visitors';

register({
  kind: 'http',
  name: 'admin-activity-visitors',
  route: 'admin/activity/visitors',
  methods: ['GET'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => activityVisitors(asked, site.activity), root.operator));
  },
});
