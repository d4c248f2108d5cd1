import { register } from '../host/registry';
import { siteAnswer } from '../host/http/site';
import { incoming, response } from '../host/http/request';
import { answerPulse } from '../shared/read/counting/answers';

register({
  kind: 'http',
  name: 'pulse',
  route: 'pulse',
  methods: ['GET', 'OPTIONS'],
  make: (root) => async (request) => {
    const asked = incoming(request);
    return response(await siteAnswer(asked, root.sites, (site) => answerPulse(asked, site.count)));
  },
});
