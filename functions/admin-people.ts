import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { answerPeopleCount } from '../shared/counting/answers';

register({
  kind: 'http',
  name: 'admin-people',
  route: 'admin/visitors/people',
  methods: ['GET'],
  make: (root) => async (request) => response(await answerPeopleCount(incoming(request), root.count)),
});
