import { register } from '../host/registry';
import { siteAnswer } from '../host/http/site';
import { incoming, response } from '../host/http/request';
import { answerPeopleCount } from '../shared/read/counting/answers';

register({
  kind: 'http',
  name: 'admin-people',
  route: 'admin/visitors/people',
  methods: ['GET'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => answerPeopleCount(asked, site.count), root.operator));
  },
});
