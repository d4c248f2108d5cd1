import { register } from '../host/registry';
import { siteAnswer } from '../host/http/site';
import { incoming, response } from '../host/http/request';
import { answerSubjects } from '../shared/read/subjects';

register({
  kind: 'http',
  name: 'admin-subjects',
  route: 'admin/subjects',
  methods: ['GET'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => answerSubjects(asked, site.subjects), root.operator));
  },
});
