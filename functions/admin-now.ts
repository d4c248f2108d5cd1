import { register } from '../host/registry';
import { siteAnswer } from '../host/http/site';
import { incoming, response } from '../host/http/request';
import { nowCard } from '../shared/read/now';

register({
  kind: 'http',
  name: 'admin-now',
  route: 'admin/now',
  methods: ['GET'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => nowCard(asked, site.now), root.operator));
  },
});
