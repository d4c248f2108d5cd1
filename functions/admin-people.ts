import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { answerPeopleCount } from '../shared/counting/answers';
import { countAnswerDeps } from '../shared/counting/deps';

register({
  kind: 'http',
  name: 'admin-people',
  route: 'admin/visitors/people',
  methods: ['GET'],
  make: (root) => {
    const deps = countAnswerDeps(root);
    return async (request) => response(await answerPeopleCount(incoming(request), deps));
  },
});
