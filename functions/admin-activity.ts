import { register } from '../host/registry';
import { siteAnswer } from '../shared/sites/read';
import { incoming, response } from '../host/http';
import { activityCard } from '../shared/read/activity/card';

register({
  kind: 'http',
  name: 'admin-activity',
  route: 'admin/activity',
  methods: ['GET'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => activityCard(asked, site.activity), root.operator));
  },
});
