import { register } from '../host/registry';
import { siteAnswer } from '../host/http/site';
import { incoming, response } from '../host/http/request';
import { answerSubject } from '../shared/read/subjects';

register({
  kind: 'http',
  name: 'admin-subject',
  route: 'admin/subjects/{id}',
  methods: ['GET'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => answerSubject(asked, site.subjects), root.operator));
  },
});
